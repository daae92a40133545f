import type { MailroomBody as MailroomBodySchema } from '@contract';
import type { z } from 'zod';

/** What POST takes (PUT takes any subset). The list is read through @/lib/resources/mailrooms. */
export type MailroomBody = z.input<typeof MailroomBodySchema>;
