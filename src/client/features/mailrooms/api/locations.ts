import type { LocationBody as LocationBodySchema } from '@contract';
import type { z } from 'zod';

/** What POST takes (PUT takes any subset). The list is read through @/lib/resources/mailrooms. */
export type LocationBody = z.input<typeof LocationBodySchema>;
