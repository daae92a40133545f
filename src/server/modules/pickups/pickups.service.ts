import { renderSVG } from 'uqr';
import { and, eq } from 'drizzle-orm';
import {
  PICKUP_CODE_INACTIVE,
  PICKUP_CODE_NOT_FOUND,
  PROXIES_MAX,
  TOO_MANY_PROXIES,
  formatPickupCode,
  proxyExists,
  type Proxy,
  type RecipientPickupCode,
} from '../../../contract';
import { recipients } from '../../db/schema';
import type { Deps, OrgCaller } from '../../context';
import { conflict, notFound } from '../../lib/errors';
import { violatedUniqueConstraint } from '../../lib/pg-errors';
import { tryPickupCode } from '../mail-items/pickup-code-misses';
import { RECIPIENT_NOT_FOUND } from '../recipients/recipients.service';
import { pickupCodesRepository, type PickupLookupBy } from './pickup-codes.repository';
import { proxiesRepository } from './proxies.repository';

/** More than a desk hands over at once; the lookup shows the oldest this many. */
export const LOOKUP_MAX_ITEMS = 100;

/** The QR of a code holds the code as the desk shows it, so a USB scanner types what a person would. */
const pickupCodeQrSvg = (code: string) => renderSVG(formatPickupCode(code), { border: 2 });

const codeReply = (recipientId: string, code: string): RecipientPickupCode => ({
  recipientId,
  code: formatPickupCode(code),
  qrCodeSvg: pickupCodeQrSvg(code),
});

/**
 * Only the organization matters to these calls: the desk's staff act with their OrgCaller, the
 * recipient's own page (decision 032) with their RecipientCaller on their own row.
 */
type OrgScope = Pick<OrgCaller, 'organizationId'>;

export function createPickupsService({ db }: Deps) {
  return {
    /**
     * Whose code it is (or who the recipient is), who may collect for them, and their items still
     * waiting (pending or notified), oldest first, as the reply's JSON (PickupLookup).
     *
     * By code: a code of another organization, a regenerated one or a wrong one are all the same
     * 404, counted as misses (tryPickupCode); a deactivated recipient's is a 409 that says so.
     * By recipient id (the desk starting a hand-over from an item's row): nothing is guessed, so
     * nothing counts against the misses, and a deactivated recipient's items are found too (a
     * resident who moved out collects; the hand-over then names them by ID or as known to staff,
     * since their code is refused there); another organization's recipient is 404.
     */
    async lookup(caller: Pick<OrgCaller, 'organizationId' | 'userId'>, by: PickupLookupBy): Promise<string> {
      if ('recipientId' in by) {
        const found = await pickupCodesRepository.lookupJson(db, caller.organizationId, by, LOOKUP_MAX_ITEMS);
        if (!found) throw notFound(RECIPIENT_NOT_FOUND);
        return found.body;
      }
      const attempt = await tryPickupCode(db, caller);
      const found = await pickupCodesRepository.lookupJson(db, caller.organizationId, by, LOOKUP_MAX_ITEMS);
      if (!found) throw notFound(PICKUP_CODE_NOT_FOUND);
      // A deactivated recipient's code opens nothing (decision 050); it still counts as a miss.
      if (!found.active) throw conflict(PICKUP_CODE_INACTIVE, 'recipient_inactive');
      await attempt.found();
      return found.body;
    },

    async code(caller: OrgScope, recipientId: string): Promise<RecipientPickupCode> {
      const code = await pickupCodesRepository.codeOf(db, caller.organizationId, recipientId);
      if (!code) throw notFound(RECIPIENT_NOT_FOUND);
      return codeReply(recipientId, code);
    },

    /**
     * A new code (a lost or shared one): the old one stops working at once. Two writers drawing
     * the same new code at the same instant (one in 10^8) meet the unique index; the loser draws again.
     */
    async regenerate(caller: OrgScope, recipientId: string): Promise<RecipientPickupCode> {
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

    async proxies(caller: OrgScope, recipientId: string): Promise<Proxy[]> {
      if (!(await pickupCodesRepository.codeOf(db, caller.organizationId, recipientId))) {
        throw notFound(RECIPIENT_NOT_FOUND);
      }
      return proxiesRepository.list(db, caller.organizationId, recipientId);
    },

    /** Names someone who may collect; the recipient's row is locked so the list never passes PROXIES_MAX. */
    async addProxy(caller: OrgScope, recipientId: string, name: string): Promise<Proxy> {
      const { organizationId } = caller;
      return db.transaction(async (tx) => {
        const [recipient] = await tx
          .select({ id: recipients.id })
          .from(recipients)
          .where(and(eq(recipients.organizationId, organizationId), eq(recipients.id, recipientId)))
          .for('update');
        if (!recipient) throw notFound(RECIPIENT_NOT_FOUND);
        if ((await proxiesRepository.count(tx, organizationId, recipientId)) >= PROXIES_MAX) {
          throw conflict(TOO_MANY_PROXIES, 'too_many_proxies');
        }
        const proxy = await proxiesRepository.insert(tx, organizationId, recipientId, name);
        if (!proxy) throw conflict(proxyExists(name), 'proxy_exists');
        return proxy;
      });
    },

    async removeProxy(caller: OrgScope, recipientId: string, proxyId: string): Promise<void> {
      if (!(await proxiesRepository.delete(db, caller.organizationId, recipientId, proxyId))) {
        throw notFound('Proxy not found');
      }
    },
  };
}

export type PickupsService = ReturnType<typeof createPickupsService>;
