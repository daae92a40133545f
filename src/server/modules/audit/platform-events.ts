import type { DbOrTx } from '../../db/client';
import * as rateLimiter from '../../lib/rate-limiter';
import { platformLogRepository, type PlatformLogRecord } from './platform-log.repository';

/**
 * What other modules report to the platform log (System Logs) besides operators' changes. Both
 * kinds can be provoked by anyone on the internet, so each source is throttled: a flood of bad
 * requests leaves a readable trail, not a million rows.
 */

/**
 * Entries each source may write in an hour. A source is what provokes the entry, so that a flood
 * from one fills only its own quota (issue 24): anonymous posts with a bad or missing signature to
 * a payment webhook are one source, events the provider signed and we refused (a real billing
 * problem) another, each scope of refused sign-ins another. Operators' changes are never throttled.
 */
export const PLATFORM_LOG_QUOTAS = {
  /** Anyone: a post to the webhook whose signature did not verify. */
  'webhook:stripe:unverified': 60,
  /** Events Stripe signed that were refused (unknown customer, processing failed...). */
  'webhook:stripe:verified': 60,
  /** Sign-ins refused from one address (once per address and window). */
  'sign_in:address': 120,
  /** Sign-ins refused to one typed account (once per name and window). */
  'sign_in:account': 120,
  /** Two-factor codes refused at sign-in for one account (once per account and window, decision 029). */
  'sign_in:two_factor': 120,
  /** Anyone: a SCIM request with a missing, unknown or revoked bearer token (decision 060). */
  'scim:invalid_token': 60,
} as const;
export type PlatformLogSource = keyof typeof PLATFORM_LOG_QUOTAS;

const QUOTA_WINDOW_SECONDS = 3600;

/**
 * Records the entry if its source has quota left this hour. The last entry the quota allows says
 * so (`details.quotaReached`), so the log shows where the source's trail stops until the hour ends.
 */
async function recordWithinQuota(db: DbOrTx, source: PlatformLogSource, entry: PlatformLogRecord) {
  const limit = PLATFORM_LOG_QUOTAS[source];
  const quota = await rateLimiter.hit(db, `platform-log:${source}`, limit, QUOTA_WINDOW_SECONDS);
  if (!quota.allowed) return;
  const last = quota.count === limit ? { quotaReached: true, quotaPerHour: limit } : {};
  await platformLogRepository.record(db, { ...entry, details: { ...entry.details, ...last } });
}

/**
 * Sign-ins refused for too many failures in the window: written once per window and key (the
 * first refused attempt), for the typed account or for the address.
 */
export async function logRepeatedSignInFailures(
  db: DbOrTx,
  entry: { scope: 'account' | 'address'; login: string; ip: string; attempts: number; windowSeconds: number },
) {
  await recordWithinQuota(db, `sign_in:${entry.scope}`, {
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
  await recordWithinQuota(db, 'sign_in:two_factor', {
    kind: 'sign_in',
    action: 'sign_in.repeated_two_factor_failures',
    targetType: 'user',
    targetId: entry.userId,
    targetLabel: entry.email,
    details: { attempts: entry.attempts, windowMinutes: Math.round(entry.windowSeconds / 60) },
  });
}

/**
 * A payment provider's webhook refused (bad signature, unknown customer, not configured...). The
 * event id is known only once the provider's signature verified (stripe-webhooks.ts reads it from
 * the verified event), so a failure without one is an anonymous post and counts against its own
 * quota, never against the refusals of events the provider signed.
 */
export async function logWebhookFailure(
  db: DbOrTx,
  provider: 'stripe',
  failure: { code: string; message: string; eventId?: string; eventType?: string },
) {
  await recordWithinQuota(db, `webhook:${provider}:${failure.eventId ? 'verified' : 'unverified'}`, {
    kind: 'webhook',
    action: 'webhook.stripe_failed',
    targetType: 'provider',
    targetLabel: provider,
    details: { ...failure },
  });
}

/**
 * A SCIM request refused for its bearer token (missing, unknown or revoked). A revoked token names
 * its organization; an unknown one names nobody, so all count against one anonymous quota.
 */
export async function logScimTokenRefused(
  db: DbOrTx,
  entry: {
    reason: 'missing' | 'unknown' | 'revoked';
    ip: string;
    method: string;
    path: string;
    organizationId?: string;
  },
) {
  await recordWithinQuota(db, 'scim:invalid_token', {
    kind: 'scim',
    action: 'scim.token_refused',
    targetType: entry.organizationId ? 'organization' : 'login',
    targetId: entry.organizationId ?? null,
    targetLabel: entry.ip,
    details: { reason: entry.reason, ip: entry.ip, method: entry.method, path: entry.path },
  });
}
