import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { ADMIN_EMAIL_EVENTS } from '../../lib/admin-email-events';

export type PaymentFailedDetails = {
  /** Minor units (cents), as the provider reports them. */
  amount: number;
  /** ISO 4217 code, either case ('usd'). */
  currency: string;
  invoiceUrl: string | null;
  /** The provider's event id: the same event delivered again queues nothing twice. */
  eventId: string;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The facts as the email may state them. Whatever the provider sent, the insert must not fail
 * (it runs inside the webhook's transaction): an amount that is no integer, a currency that is
 * no three-letter code or a link that is no web URL is left out of the message instead.
 */
function emailFacts(details: PaymentFailedDetails) {
  const url = details.invoiceUrl;
  return {
    amount: Number.isSafeInteger(details.amount) ? details.amount : null,
    currency: /^[a-z]{3}$/i.test(details.currency) ? details.currency.toUpperCase() : null,
    invoiceUrl: url && url.length <= 2048 && /^https?:\/\//i.test(url) ? url : null,
  };
}

/**
 * The event part of the dedupe key (255 characters at most with the prefix and a user id):
 * provider ids are short; anything longer is hashed, never cut (two ids must not collide).
 */
const eventKey = (eventId: string) =>
  eventId.length <= 150 ? eventId : crypto.createHash('sha256').update(eventId).digest('hex');

/**
 * Queues "Your Pigeonhole payment failed" to every admin of the organization, in the caller's
 * transaction (the email exists only if the failure is recorded). One email job per admin with
 * dedupe_key `payment-failed:<eventId>:<userId>`: a replayed webhook, or a second call for the
 * same event, queues nothing more. The notification worker sends it through the platform's SMTP
 * server with the outbox's retries; it belongs to no mail item and no integration. Answers how
 * many emails were queued.
 */
export async function queuePaymentFailedEmails(
  tx: DbOrTx,
  organizationId: string,
  details: PaymentFailedDetails,
): Promise<number> {
  if (!UUID.test(organizationId)) return 0;
  const facts = emailFacts(details);
  const result = await tx.execute(sql`
    insert into notification_jobs (organization_id, channel, event, destination, payload, dedupe_key)
    select o.id, 'email', ${ADMIN_EMAIL_EVENTS.paymentFailed}, u.email,
           jsonb_build_object(
             'kind', 'payment_failed',
             'amount', ${facts.amount}::bigint,
             'currency', ${facts.currency}::text,
             'invoiceUrl', ${facts.invoiceUrl}::text,
             'organizationName', o.name,
             'firstName', u.first_name),
           ${`payment-failed:${eventKey(details.eventId)}:`} || u.id
    from organizations o
    join organization_members m on m.organization_id = o.id and m.role = 'admin'
    join users u on u.id = m.user_id
    where o.id = ${organizationId}
    on conflict (dedupe_key) do nothing`);
  return result.rowCount ?? 0;
}
