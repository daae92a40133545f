import type { DbOrTx } from '../../db/client';
import * as rateLimiter from '../../lib/rate-limiter';
import { platformLogRepository } from './platform-log.repository';

/**
 * What other modules report to the platform log (System Logs) besides operators' changes. Both
 * kinds can be provoked by anyone on the internet, so each is throttled: a flood of bad requests
 * leaves a readable trail, not a million rows.
 */

const WEBHOOK_ENTRIES_PER_HOUR = 60;

/**
 * Sign-ins refused for too many failures in the window: written once per window and key (the
 * first refused attempt), for the typed account or for the address.
 */
export async function logRepeatedSignInFailures(
  db: DbOrTx,
  entry: { scope: 'account' | 'address'; login: string; ip: string; attempts: number; windowSeconds: number },
) {
  await platformLogRepository.record(db, {
    kind: 'sign_in',
    action: 'sign_in.repeated_failures',
    targetType: 'login',
    targetLabel: entry.scope === 'account' ? entry.login : entry.ip,
    details: {
      scope: entry.scope,
      login: entry.login,
      ip: entry.ip,
      attempts: entry.attempts,
      windowMinutes: Math.round(entry.windowSeconds / 60),
    },
  });
}

/**
 * Two-factor codes refused at sign-in for too many wrong ones: written once per window (the first
 * refused attempt). Whoever sent them holds the account's password.
 */
export async function logRepeatedTwoFactorFailures(
  db: DbOrTx,
  entry: { userId: string; email: string; attempts: number; windowSeconds: number },
) {
  await platformLogRepository.record(db, {
    kind: 'sign_in',
    action: 'sign_in.repeated_two_factor_failures',
    targetType: 'user',
    targetId: entry.userId,
    targetLabel: entry.email,
    details: { attempts: entry.attempts, windowMinutes: Math.round(entry.windowSeconds / 60) },
  });
}

/** A payment provider's webhook refused (bad signature, unknown customer, not configured...). */
export async function logWebhookFailure(
  db: DbOrTx,
  provider: 'stripe',
  failure: { code: string; message: string; eventId?: string; eventType?: string },
) {
  const throttle = await rateLimiter.hit(db, `platform-log:webhook:${provider}`, WEBHOOK_ENTRIES_PER_HOUR, 3600);
  if (!throttle.allowed) return;
  await platformLogRepository.record(db, {
    kind: 'webhook',
    action: 'webhook.stripe_failed',
    targetType: 'provider',
    targetLabel: provider,
    details: { ...failure },
  });
}
