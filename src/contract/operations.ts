import { z } from 'zod';

/** Liveness: the process is up and serving HTTP (the database is not asked). */
export const HealthReply = z.object({
  status: z.literal('ok'),
  uptimeSeconds: z.number(),
});
export type HealthReply = z.infer<typeof HealthReply>;

/**
 * One readiness check: `ok`, `failing` (the instance should get no traffic) or `off` (not run by
 * this instance, e.g. the notification worker with NOTIFICATIONS_WORKER=false). The state alone:
 * what was seen (a driver's error text, an address, the queue's counts) goes to the server's log,
 * never into this public reply (issue 41, item 10; decision 052).
 */
export const ReadinessCheck = z.object({
  state: z.enum(['ok', 'failing', 'off']),
});
export type ReadinessCheck = z.infer<typeof ReadinessCheck>;

export const READINESS_CHECKS = ['database', 'queue', 'notificationWorker', 'changeFeed'] as const;
export type ReadinessCheckName = (typeof READINESS_CHECKS)[number];

/** Readiness: 200 `ready` when no check is failing, else 503 `unavailable` naming the failing ones. */
export const ReadyReply = z.object({
  status: z.enum(['ready', 'unavailable']),
  checks: z.object({
    database: ReadinessCheck,
    queue: ReadinessCheck,
    notificationWorker: ReadinessCheck,
    changeFeed: ReadinessCheck,
  }),
  failed: z.array(z.enum(READINESS_CHECKS)),
});
export type ReadyReply = z.infer<typeof ReadyReply>;
