import { z } from 'zod';

export const HealthReply = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['ok', 'unreachable']),
  uptimeSeconds: z.number(),
});
export type HealthReply = z.infer<typeof HealthReply>;
