import { z } from 'zod';
import { Timestamp } from './common';

export const DashboardStats = z.object({
  /** Items that arrived today, in the organization's timezone. */
  todaysMail: z.number().int(),
  /** Items not yet handed over (pending or notified). */
  pendingPickups: z.number().int(),
  activeRecipients: z.number().int(),
  /** Delivered / total, rounded to a whole percent (0 when there are no items). */
  deliveryRate: z.number().int(),
});
export type DashboardStats = z.infer<typeof DashboardStats>;

export const RecentActivityQuery = z.object({
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(50, 'limit must be at most 50')
    .default(5),
});

export const RecentActivityItem = z.object({
  id: z.uuid(),
  type: z.string(),
  status: z.string(),
  sender: z.string().nullable(),
  arrivedAt: Timestamp,
  recipient: z.object({ firstName: z.string(), lastName: z.string() }).nullable(),
});
export type RecentActivityItem = z.infer<typeof RecentActivityItem>;
