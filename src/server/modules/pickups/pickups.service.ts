import { renderSVG } from 'uqr';
import {
  PICKUP_CODE_NOT_FOUND,
  formatPickupCode,
  type PickupLookup,
  type RecipientPickupCode,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import { notFound } from '../../lib/errors';
import { violatedUniqueConstraint } from '../../lib/pg-errors';
import { mailItemsRepository } from '../mail-items/mail-items.repository';
import { RECIPIENT_NOT_FOUND } from '../recipients/recipients.service';
import { pickupCodesRepository } from './pickup-codes.repository';

/** More than a desk hands over at once; the lookup shows the oldest this many. */
export const LOOKUP_MAX_ITEMS = 100;

/** The QR of a code holds the code as the desk shows it, so a USB scanner types what a person would. */
export const pickupCodeQrSvg = (code: string) => renderSVG(formatPickupCode(code), { border: 2 });

const codeReply = (recipientId: string, code: string): RecipientPickupCode => ({
  recipientId,
  code: formatPickupCode(code),
  qrCodeSvg: pickupCodeQrSvg(code),
});

export function createPickupsService({ db }: Deps) {
  return {
    /**
     * Whose code it is and their items still waiting (pending or notified), oldest first. A code
     * of another organization, a regenerated one or a wrong one are all the same 404.
     */
    async lookup(caller: OrgCaller, code: string): Promise<PickupLookup> {
      const recipient = await pickupCodesRepository.findHolder(db, caller.organizationId, code);
      if (!recipient) throw notFound(PICKUP_CODE_NOT_FOUND);
      const { json } = await mailItemsRepository.page(
        db,
        caller.organizationId,
        {
          recipientId: recipient.id,
          statuses: ['pending', 'notified'],
          order: 'asc',
          limit: LOOKUP_MAX_ITEMS,
          offset: 0,
        },
        'summary',
      );
      return { recipient, items: JSON.parse(json) };
    },

    async code(caller: OrgCaller, recipientId: string): Promise<RecipientPickupCode> {
      const code = await pickupCodesRepository.codeOf(db, caller.organizationId, recipientId);
      if (!code) throw notFound(RECIPIENT_NOT_FOUND);
      return codeReply(recipientId, code);
    },

    /**
     * A new code (a lost or shared one): the old one stops working at once. Two writers drawing
     * the same new code at the same instant (one in 10^8) meet the unique index; the loser draws again.
     */
    async regenerate(caller: OrgCaller, recipientId: string): Promise<RecipientPickupCode> {
      for (let attempt = 1; ; attempt++) {
        try {
          const code = await pickupCodesRepository.regenerate(db, caller.organizationId, recipientId);
          if (!code) throw notFound(RECIPIENT_NOT_FOUND);
          return codeReply(recipientId, code);
        } catch (err) {
          if (attempt >= 3 || violatedUniqueConstraint(err) !== 'recipients_pickup_code_org_idx') throw err;
        }
      }
    },
  };
}

export type PickupsService = ReturnType<typeof createPickupsService>;
