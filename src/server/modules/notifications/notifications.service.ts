import {
  acceptLanguageTags,
  firstSupportedLanguage,
  isSupportedLanguage,
  recipientLanguage,
  resolveLanguage,
  type Language,
  type NotificationMessage,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import { notFound } from '../../lib/errors';
import { mailItemsRepository } from '../mail-items/mail-items.repository';
import { recipientsRepository } from '../recipients/recipients.repository';
import { verifyUnsubscribeToken } from './messages';
import { queueRepository, toNotificationMessage } from './queue.repository';

export const MAIL_ITEM_NOT_FOUND = 'Mail item not found';

/**
 * What the notification calls do: an item's messages for the desk, and the public unsubscribe
 * link. `unsubscribeKeys` are the keys the links may be signed with (current first, then those of
 * SECRETS_KEY_PREVIOUS), from the pipeline (worker.ts).
 */
export function createNotificationsService({ db }: Pick<Deps, 'db'>, unsubscribeKeys: readonly Buffer[]) {
  return {
    /**
     * The item's messages (not its event rows), newest first. A deleted item's stay readable,
     * like its history: 404 only when the organization knows no such item and no row of it.
     */
    async messagesOfItem(caller: OrgCaller, mailItemId: string): Promise<NotificationMessage[]> {
      const { organizationId } = caller;
      const rows = await queueRepository.messagesOfItem(db, organizationId, mailItemId);
      if (
        rows.length === 0 &&
        !(await queueRepository.hasAnyForItem(db, organizationId, mailItemId)) &&
        !(await mailItemsRepository.findWithRelations(db, organizationId, mailItemId))
      ) {
        throw notFound(MAIL_ITEM_NOT_FOUND);
      }
      return rows.map(toNotificationMessage);
    },

    /** Whether an unsubscribe link is one of ours (opening it changes nothing). */
    isUnsubscribeToken(token: string): boolean {
      return verifyUnsubscribeToken(unsubscribeKeys, token) !== undefined;
    },

    /**
     * The language of the unsubscribe page (decision 066): the link's recipient's own, else the
     * browser's (Accept-Language), else their organization's default; an invalid link, the browser's.
     */
    async pageLanguage(token: string, acceptLanguage: string | undefined): Promise<Language> {
      const browser = firstSupportedLanguage(acceptLanguageTags(acceptLanguage));
      const recipientId = verifyUnsubscribeToken(unsubscribeKeys, token);
      const sources = recipientId ? await recipientsRepository.languageSources(db, recipientId) : undefined;
      if (!sources) return browser ?? 'en';
      const own = isSupportedLanguage(sources.language) ? sources.language : resolveLanguage(sources.preferredLanguage);
      return own ?? browser ?? recipientLanguage(null, sources.organizationDefault);
    },

    /** Opts the link's recipient out of email and SMS; false when the link is not one of ours. */
    async unsubscribe(token: string): Promise<boolean> {
      const recipientId = verifyUnsubscribeToken(unsubscribeKeys, token);
      if (!recipientId) return false;
      await recipientsRepository.optOutOfNotifications(db, recipientId);
      return true;
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
