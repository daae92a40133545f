import type { WebClient } from '@slack/web-api';
import { and, eq, isNull } from 'drizzle-orm';
import { SLACK_MESSAGES } from '../../../contract';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { integrations } from '../../db/schema';
import type { SecretBox } from '../../lib/secrets';
import { mintPortalLink } from '../recipients/page-links';
import {
  classifySlackError,
  postSlackMessage,
  slackClient,
  slackEscape,
  slackFailureResult,
  SLACK_TOKEN_REFUSED,
  type SlackMessage,
} from './channels/slack';
import { failure, type SendResult } from './channels/types';
import { PORTAL_TOKEN_PLACEHOLDER } from './messages';
import type { JobRow } from './queue.repository';

/** What a Slack job of a recipient carries (slack-fan-out.ts writes it). */
export type SlackRecipientPayload = {
  kind: 'arrival' | 'reminder' | 'receipt';
  /** The rendered email's subject and plain text (messages.ts): the same words, the same language. */
  subject: string;
  text: string;
  pickupCode: string | null;
  /** The worker mints the page link's token as it sends, as for the email (decision 032). */
  portalLink: boolean;
};

/** What a Slack job for the staff channel carries: its text, written when it was queued. */
export type SlackStaffPayload = { staff: true; text: string };

/** How long a recipient's Slack user id is remembered (per integration): a send of many skips the lookup. */
const USER_CACHE_MS = 10 * 60_000;
const USER_CACHE_MAX = 5_000;

/**
 * A Slack DM from the rendered email: its subject as the header, its text as the body. The line
 * with the pickup code (the text's first, decision 063) is set in bold on its own, so the code
 * stands out whatever language the text is in; the plain text stays the notification's fallback.
 */
export function slackRecipientMessage(p: SlackRecipientPayload, text: string): SlackMessage {
  const lines = text.split('\n');
  // The email's footer (after '--') holds the unsubscribe link: kept, as in the email.
  const codeLine = p.pickupCode ? lines.findIndex((l) => l.includes(p.pickupCode!)) : -1;
  const body = lines
    .map((line, n) => {
      const escaped = slackEscape(line);
      if (n !== codeLine) return escaped;
      return escaped.replace(slackEscape(p.pickupCode!), `\`${slackEscape(p.pickupCode!)}\``).replace(/^(.*)$/, '*$1*');
    })
    .join('\n')
    .trim();
  // Slack caps a section's text at 3000 characters and a header's at 150.
  const header = p.subject.length > 150 ? `${p.subject.slice(0, 149)}…` : p.subject;
  const section = body.length > 3000 ? `${body.slice(0, 2999)}…` : body;
  return {
    text: p.pickupCode ? `${p.subject}: ${p.pickupCode}` : p.subject,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: header, emoji: false } },
      { type: 'section', text: { type: 'mrkdwn', text: section } },
    ],
  };
}

export type SlackSenderDeps = { db: Db; config: Pick<Config, 'slackApiUrl'>; secrets: SecretBox };

/**
 * Sends the outbox's 'slack' jobs (decision 064): a recipient's DM (users.lookupByEmail, then
 * chat.postMessage to the user id) or a staff message to the integration's staff channel.
 * A token Slack refuses marks the integration as needing attention, and its later jobs are
 * skipped with that reason instead of tried.
 */
export function createSlackSender({ db, config, secrets }: SlackSenderDeps) {
  const userIds = new Map<string, { id: string; until: number }>();
  /**
   * One WebClient per integration and stored token (its ciphertext: a new token is a new client),
   * so a backlog reuses the SDK's connection and queue instead of building one per message.
   */
  const clients = new Map<string, { cipher: string; client: WebClient }>();
  function clientOf(integrationId: string, cipher: string): WebClient {
    const known = clients.get(integrationId);
    if (known?.cipher === cipher) return known.client;
    if (clients.size >= 1_000) clients.delete(clients.keys().next().value!);
    const client = slackClient(config.slackApiUrl, secrets.decrypt(cipher));
    clients.set(integrationId, { cipher, client });
    return client;
  }

  function rememberUser(key: string, id: string) {
    if (userIds.size >= USER_CACHE_MAX) userIds.delete(userIds.keys().next().value!);
    userIds.set(key, { id, until: Date.now() + USER_CACHE_MS });
  }

  async function markAttention(integrationId: string, organizationId: string, reason: string) {
    await db
      .update(integrations)
      .set({ attentionReason: reason, attentionAt: new Date(), updatedAt: new Date() })
      .where(
        and(
          eq(integrations.organizationId, organizationId),
          eq(integrations.id, integrationId),
          isNull(integrations.attentionReason),
        ),
      );
  }

  return async function sendSlackJob(job: JobRow): Promise<SendResult | { skip: string }> {
    if (!job.integrationId || !job.organizationId) {
      return failure('The Slack integration was removed', { permanent: true });
    }
    const [integration] = await db
      .select()
      .from(integrations)
      .where(
        and(
          eq(integrations.organizationId, job.organizationId),
          eq(integrations.id, job.integrationId),
          eq(integrations.type, 'slack'),
        ),
      );
    const k = integration?.config.slackSettings;
    if (!integration || !integration.isActive || !k?.botToken) {
      return failure('The Slack integration was removed, turned off or lacks its bot token', { permanent: true });
    }
    if (integration.attentionReason)
      return { skip: `The Slack integration needs attention: ${integration.attentionReason}` };
    const client = clientOf(integration.id, k.botToken);

    const result = await (async (): Promise<SendResult | { skip: string }> => {
      if (job.payload.staff) {
        if (!k.staffChannelId) return { skip: 'No staff channel is picked in the Slack integration' };
        return postSlackMessage(client, k.staffChannelId, { text: String((job.payload as SlackStaffPayload).text) });
      }
      const p = job.payload as unknown as SlackRecipientPayload;
      const email = job.destination!;
      const cacheKey = `${integration.id}:${email.toLowerCase()}`;
      let userId = userIds.get(cacheKey);
      if (!userId || userId.until < Date.now()) {
        const started = performance.now();
        try {
          const found = await client.users.lookupByEmail({ email });
          if (!found.user?.id) return { skip: SLACK_MESSAGES.userNotFound };
          rememberUser(cacheKey, found.user.id);
          userId = userIds.get(cacheKey)!;
        } catch (err) {
          const f = classifySlackError(err);
          // Not a failure of the message: the person is not on the organization's Slack.
          if (f.kind === 'platform' && f.error === 'users_not_found') return { skip: SLACK_MESSAGES.userNotFound };
          return slackFailureResult(f, Math.round(performance.now() - started));
        }
      }
      let text = p.text;
      if (p.portalLink && job.recipientId && text.includes(PORTAL_TOKEN_PLACEHOLDER)) {
        const token = await mintPortalLink(db, job.organizationId!, job.recipientId, 'arrival');
        text = text.replaceAll(PORTAL_TOKEN_PLACEHOLDER, token);
      }
      return postSlackMessage(client, userId.id, slackRecipientMessage(p, text));
    })();

    if (!('skip' in result) && !result.ok && result.permanent && result.error.startsWith(SLACK_TOKEN_REFUSED)) {
      await markAttention(integration.id, integration.organizationId, `${result.error}: ${SLACK_MESSAGES.attention}`);
    }
    return result;
  };
}
