import { z } from 'zod';
import { ADMIN_EMAIL_EVENTS } from '../../lib/admin-email-events';
import { escapeHtml, formatInZone, type RenderedEmail } from './messages';

/**
 * Emails to an organization's admins about its account (not about mail items): they ride the
 * same outbox as recipient messages (retries, dedupe keys, retention) but always go through the
 * platform's SMTP_URL, never an organization's email integration, and carry no mail item.
 */
export { ADMIN_EMAIL_EVENTS };

const adminEvents: readonly string[] = Object.values(ADMIN_EMAIL_EVENTS);

export const isAdminEmail = (job: { channel: string; event: string }) =>
  job.channel === 'email' && adminEvents.includes(job.event);

/**
 * What an admin email job carries: the facts the message states, written when it is queued.
 * The words are rendered at send time from these and the link base (the trial scan is one
 * INSERT … SELECT, and the billing service queues inside its own transaction, neither knows
 * APP_URL): a pure function of the payload, so every retry still sends the same message.
 */
const Addressee = { organizationName: z.string(), firstName: z.string().nullish() };
export const AdminEmailPayload = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('trial_ending'),
    /** The threshold that queued it: 3 or 1 days before the end. */
    days: z.number().int().positive(),
    trialEndsAt: z.iso.datetime(),
    timezone: z.string(),
    ...Addressee,
  }),
  z.object({
    kind: z.literal('payment_failed'),
    /** Minor units (cents), as the provider reports them; null when it sent none usable. */
    amount: z.number().int().nullable(),
    currency: z.string().nullable(),
    invoiceUrl: z.string().nullable(),
    ...Addressee,
  }),
]);
export type AdminEmailPayload = z.infer<typeof AdminEmailPayload>;

type Link = { label: string; url: string };
type AdminMessage = { subject: string; paragraphs: string[]; links: Link[] };

const WHAT_PAUSES = 'logging new mail, adding members and adding integrations pause';

/** 17500 USD -> '$175.00'; 1000 JPY -> '¥1,000' (a currency's own minor unit); unknown codes still read. */
function formatMoney(amount: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amount / 10 ** digits);
  } catch {
    return `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

/** Only web links become links: an invoice URL is the provider's, but it lands in HTML. */
const webLink = (url: string | null) => (url && /^https?:\/\/[^\s"'<>]+$/i.test(url) ? url : null);

function trialEnding(p: Extract<AdminEmailPayload, { kind: 'trial_ending' }>, appUrl: string): AdminMessage {
  const when = p.days === 1 ? 'tomorrow' : `in ${p.days} days`;
  return {
    subject: `Your Pigeonhole trial ends ${when}`,
    paragraphs: [
      `The free trial of ${p.organizationName} ends on ${formatInZone(new Date(p.trialEndsAt), p.timezone)} (${p.timezone}).`,
      `When it ends, everything your team has logged stays readable, but ${WHAT_PAUSES} until an admin chooses a plan.`,
    ],
    links: [{ label: 'Choose a plan', url: `${appUrl}/checkout` }],
  };
}

function paymentFailed(p: Extract<AdminEmailPayload, { kind: 'payment_failed' }>, appUrl: string): AdminMessage {
  const amount = p.amount !== null && p.currency ? formatMoney(p.amount, p.currency) : null;
  const invoice = webLink(p.invoiceUrl);
  return {
    subject: 'Your Pigeonhole payment failed',
    paragraphs: [
      `We could not collect the payment${amount ? ` of ${amount}` : ''} for ${p.organizationName}'s Pigeonhole plan.`,
      `Your plan stays active while the payment is retried. If it keeps failing, the subscription ends: everything your team has logged stays readable, but ${WHAT_PAUSES} until a plan is paid.`,
    ],
    links: [
      ...(invoice ? [{ label: 'Pay the invoice', url: invoice }] : []),
      { label: 'Update your payment method', url: `${appUrl}/settings-billing` },
    ],
  };
}

/** Subject, text and HTML of an admin email, in the layout of the recipient messages. */
export function renderAdminEmail(payload: AdminEmailPayload, appUrl: string): RenderedEmail {
  const base = appUrl.replace(/\/+$/, '');
  const message = payload.kind === 'trial_ending' ? trialEnding(payload, base) : paymentFailed(payload, base);
  const org = payload.organizationName;
  const greeting = payload.firstName ? `Hello ${payload.firstName},` : 'Hello,';
  const why = `You receive this email because you are an admin of ${org} on Pigeonhole.`;

  const text = [
    'Pigeonhole',
    '',
    greeting,
    '',
    ...message.paragraphs.flatMap((p) => [p, '']),
    ...message.links.map((l) => `${l.label}: ${l.url}`),
    '',
    '--',
    why,
    '',
  ].join('\n');

  const html = `<!doctype html>
<html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;max-width:560px;margin:0 auto;padding:16px">
<div style="font-size:18px;font-weight:bold;margin-bottom:16px">Pigeonhole</div>
<p>${escapeHtml(greeting)}</p>
${message.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${message.links
  .map(
    (l) =>
      `<p><a href="${escapeHtml(l.url)}" style="display:inline-block;padding:10px 18px;border-radius:8px;background:#4f46e5;color:#fff;text-decoration:none">${escapeHtml(l.label)}</a></p>`,
  )
  .join('\n')}
<hr style="border:none;border-top:1px solid #e5e7eb;margin-top:24px">
<p style="font-size:12px;color:#6b7280">${escapeHtml(why)}</p>
</body></html>`;
  return { subject: message.subject, text, html };
}
