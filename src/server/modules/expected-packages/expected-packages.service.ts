import { and, eq } from 'drizzle-orm';
import {
  EXPECTED_ALREADY_YOURS,
  EXPECTED_NOT_FOUND,
  EXPECTED_NO_MATCH,
  EXPECTED_NONE_IN_TEXT,
  EXPECTED_NOT_A_CARRIER_NUMBER,
  EXPECTED_PACKAGES_MAX,
  EXPECTED_TOO_MANY,
  detectCourier,
  extractTrackingNumbers,
  isCarrierTrackingNumber,
  trackingKey,
  type AddExpectedPackagesBody,
  type ExpectedMatch,
  type ExpectedPackage,
} from '../../../contract';
import { recipients } from '../../db/schema';
import type { Deps, OrgCaller, RecipientCaller } from '../../context';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { violatedUniqueConstraint } from '../../lib/pg-errors';
import { RECIPIENT_NOT_FOUND } from '../recipients/recipients.service';
import { expectedPackagesRepository as repo, type NewExpectedPackage } from './expected-packages.repository';

const OPEN_KEY_INDEX = 'expected_packages_org_open_key_recipient_idx';

/** What a request asks to expect: the number typed, or every number of a pasted confirmation. */
function requested(body: AddExpectedPackagesBody): NewExpectedPackage[] {
  if (body.trackingNumber !== undefined) {
    const n = body.trackingNumber.trim();
    // The contract refuses it too; here for callers that skip the route's validation.
    if (!isCarrierTrackingNumber(n)) throw badRequest(EXPECTED_NOT_A_CARRIER_NUMBER, 'not_a_tracking_number');
    return [{ trackingNumber: n, matchKey: trackingKey(n), carrier: detectCourier(n) }];
  }
  const found = extractTrackingNumbers(body.text ?? '');
  if (found.length === 0) throw badRequest(EXPECTED_NONE_IN_TEXT, 'no_tracking_number');
  return found.map((c) => ({
    trackingNumber: c.trackingNumber,
    matchKey: trackingKey(c.trackingNumber),
    carrier: c.carrier,
  }));
}

/**
 * Expected packages (decision 033). A recipient's side takes their RecipientCaller (their own
 * page: only their rows of their organization); the desk's match takes the member's OrgCaller.
 * The intake's own match is in the mail item writer's statement (mail-items.writes.ts).
 */
export function createExpectedPackagesService({ db }: Deps) {
  return {
    async list(caller: RecipientCaller): Promise<ExpectedPackage[]> {
      return repo.list(db, caller.organizationId, caller.recipientId);
    },

    /**
     * Registers the number(s), all or none. Only numbers a carrier would issue (format and check
     * digit, checked by the contract and by the extraction). Someone else expecting a number is no
     * refusal (decision 047): an expectation never chooses a recipient, the desk offers everyone
     * who expects it, so the first to register holds nothing and nobody learns who else expects
     * it. Numbers the recipient already expects are skipped (a pasted email twice adds nothing),
     * and asking for only those is a 409. The recipient's row is locked so the open ones never
     * pass EXPECTED_PACKAGES_MAX.
     */
    async add(caller: RecipientCaller, body: AddExpectedPackagesBody): Promise<ExpectedPackage[]> {
      const { organizationId, recipientId } = caller;
      const wanted = requested(body);
      const keys = wanted.map((w) => w.matchKey);
      try {
        return await db.transaction(async (tx) => {
          const [me] = await tx
            .select({ id: recipients.id })
            .from(recipients)
            .where(and(eq(recipients.organizationId, organizationId), eq(recipients.id, recipientId)))
            .for('update');
          if (!me) throw notFound(RECIPIENT_NOT_FOUND);
          await repo.dropStale(tx, organizationId, keys);
          const mine = await repo.mine(tx, organizationId, recipientId, keys);
          const fresh = wanted.filter((w) => !mine.has(w.matchKey));
          if (fresh.length === 0) throw conflict(EXPECTED_ALREADY_YOURS, 'already_expected');
          if ((await repo.countOpen(tx, organizationId, recipientId)) + fresh.length > EXPECTED_PACKAGES_MAX) {
            throw conflict(EXPECTED_TOO_MANY, 'too_many_expected');
          }
          return repo.insert(tx, organizationId, recipientId, body.label || null, fresh);
        });
      } catch (err) {
        // The recipient's row lock serialises their own requests; this is the index's word for it.
        if (violatedUniqueConstraint(err) === OPEN_KEY_INDEX)
          throw conflict(EXPECTED_ALREADY_YOURS, 'already_expected');
        throw err;
      }
    },

    async remove(caller: RecipientCaller, id: string): Promise<void> {
      if (!(await repo.delete(db, caller.organizationId, caller.recipientId, id))) throw notFound(EXPECTED_NOT_FOUND);
    },

    /** The desk: everyone who expects this tracking number (typed or scanned); 404 when no one does. */
    async match(caller: OrgCaller, tracking: string): Promise<ExpectedMatch> {
      const items = await repo.match(db, caller.organizationId, trackingKey(tracking));
      if (items.length === 0) throw notFound(EXPECTED_NO_MATCH);
      return { items };
    },
  };
}

export type ExpectedPackagesService = ReturnType<typeof createExpectedPackagesService>;
