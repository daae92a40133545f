import type { EraseRecipientResult, RecipientPersonalData } from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import { notFound } from '../../lib/errors';
import { isoOrNull } from '../../lib/time';
import { liveChange, publishLive } from '../../lib/live-events';
import { auditRepository } from '../audit/audit.repository';
import { expectedPackagesRepository } from '../expected-packages/expected-packages.repository';
import { endPageAccess } from '../recipients/page-links';
import { recipientsRepository } from '../recipients/recipients.repository';
import { rosterRepository } from '../roster/roster.repository';
import { RECIPIENT_NOT_FOUND, toRecipientDto } from '../recipients/recipients.service';
import {
  ERASED_TEXT,
  erasurePattern,
  isErased,
  mentionValues,
  mentionsOf,
  personalDataRepository,
  type ErasureCounts,
} from './personal-data';

/**
 * A recipient's personal data on request (decision 015): its export and its erasure. A module of
 * its own, above mail items, notifications and expected packages (decision 057): erasing reaches
 * every row that holds a copy, through each owner's writer (the mail item writer's scrubItems).
 */
export function createPrivacyService({ db }: Deps) {
  return {
    /**
     * Admins (the route checks, and so does this): everything the organization holds about the
     * recipient, as one document (decision 015). The audit entry names the recipient by id only.
     */
    async exportPersonalData(caller: OrgCaller, id: string): Promise<RecipientPersonalData> {
      const { organizationId } = caller;
      return db.transaction(async (tx) => {
        const row = await recipientsRepository.findById(tx, organizationId, id);
        if (!row) throw notFound(RECIPIENT_NOT_FOUND);
        const data = await personalDataRepository.collect(tx, organizationId, id);
        await auditRepository.record(tx, {
          organizationId,
          actorId: caller.userId,
          action: 'recipient.personal_data_exported',
          targetType: 'recipient',
          targetId: id,
          after: {
            mailItems: data.mailItems.length,
            historyEntries: data.history.length,
            notifications: data.notifications.length,
            handovers: data.handovers.length,
          },
        });
        return {
          format: 'pigeonhole.recipient-personal-data/1' as const,
          exportedAt: new Date().toISOString(),
          ...data,
          recipient: { ...toRecipientDto(row), notificationsOptOutAt: isoOrNull(row.notificationsOptOutAt) },
        };
      });
    },

    /**
     * Admins: anonymises the recipient everywhere in one transaction (decision 015) and answers
     * what changed. Idempotent: a second call finds nothing left to change, answers zeros and
     * writes no audit entry (like any change that changes nothing).
     */
    async erasePersonalData(caller: OrgCaller, id: string): Promise<EraseRecipientResult> {
      const { organizationId } = caller;
      const result = await db.transaction(async (tx) => {
        const row = await personalDataRepository.lockRecipient(tx, organizationId, id);
        if (!row) throw notFound(RECIPIENT_NOT_FOUND);
        // Once erased, the stand-in name is nothing to look for in other rows' text.
        const pattern = isErased(row) ? null : erasurePattern(row);
        const items = await personalDataRepository.eraseFromItems(tx, organizationId, id, pattern);
        const historyEntries = await personalDataRepository.eraseFromHistory(tx, organizationId, id, pattern);
        const messages = await personalDataRepository.eraseFromNotifications(tx, organizationId, id, pattern);
        // Then everyone else's items, their history and messages: where the recipient collected
        // a neighbour's parcel or a note names them (their full name, email or phone only).
        const mentions = isErased(row)
          ? null
          : mentionsOf(row, await personalDataRepository.namesakes(tx, organizationId, row));
        const elsewhere = mentions
          ? {
              items: await personalDataRepository.eraseMentionsFromItems(tx, organizationId, id, mentions),
              history: await personalDataRepository.eraseMentionsFromHistory(tx, organizationId, id, mentions),
              messages: await personalDataRepository.eraseMentionsFromNotifications(tx, organizationId, id, mentions),
            }
          : { items: 0, history: 0, messages: 0 };
        const handedOver = await personalDataRepository.eraseFromHandovers(tx, organizationId, id);
        const otherHandovers = mentions
          ? await personalDataRepository.eraseMentionsFromHandovers(tx, organizationId, id, mentions)
          : 0;
        const proxies = await personalDataRepository.deleteProxies(tx, organizationId, id);
        // Off everyone else's list of proxies too (issue 41 item 2).
        const otherProxies = mentions
          ? await personalDataRepository.deleteFromOtherProxies(tx, organizationId, id, mentions)
          : 0;
        // The replies kept for idempotency keys (decision 049): replayed for a day, so scrubbed too.
        const idempotentReplies = await personalDataRepository.eraseFromIdempotentReplies(
          tx,
          organizationId,
          id,
          pattern,
          mentions,
        );
        // The tracking numbers they expected say what they order: gone with the rest (decision 033).
        const expected = await expectedPackagesRepository.deleteAllOf(tx, organizationId, id);
        const pageAccess = await endPageAccess(tx, organizationId, id);
        // A roster run waiting for approval keeps a preview of the file: one that names them is
        // discarded (the run to be made again), and row errors lose their address (decision 061).
        const rosterRuns = await rosterRepository.forgetRecipient(
          tx,
          organizationId,
          [id, ...(isErased(row) ? [] : mentionValues(row))],
          ERASED_TEXT,
        );
        const erased = await personalDataRepository.eraseRecipient(tx, organizationId, id);
        const counts: ErasureCounts = {
          recipient: erased ? 1 : 0,
          mailItems: items.items,
          historyEntries,
          notifications: messages.changed,
          notificationsCancelled: messages.cancelled,
          photosDeleted: items.photos + handedOver.photos,
          otherMailItems: elsewhere.items,
          otherHistoryEntries: elsewhere.history,
          otherNotifications: elsewhere.messages,
          handovers: handedOver.handovers,
          otherHandovers,
          proxies,
          otherProxies,
          idempotentReplies,
          expectedPackages: expected,
          pageAccess,
          rosterRuns,
        };
        if (Object.values(counts).some((n) => n > 0)) {
          await auditRepository.record(tx, {
            organizationId,
            actorId: caller.userId,
            action: 'recipient.erased',
            targetType: 'recipient',
            targetId: id,
            after: counts,
          });
        }
        // The items it changed were announced by the mail item writer (scrubItems), as every write of one.
        await publishLive(tx, liveChange(organizationId, 'recipients', [id]));
        return { recipient: toRecipientDto(erased ?? row), counts };
      });
      return result;
    },
  };
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;
