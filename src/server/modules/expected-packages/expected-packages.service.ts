import { and, eq } from 'drizzle-orm';
import {
  EXPECTED_ALREADY_YOURS,
  EXPECTED_NOT_FOUND,
  EXPECTED_NO_MATCH,
  EXPECTED_NONE_IN_TEXT,
  EXPECTED_PACKAGES_MAX,
  EXPECTED_TAKEN,
  EXPECTED_TOO_MANY,
  detectCourier,
  extractTrackingNumbers,
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

const OPEN_KEY_INDEX = 'expected_packages_org_open_key_idx';

/** What a request asks to expect: the number typed, or every number of a pasted confirmation. */
function requested(body: AddExpectedPackagesBody): NewExpectedPackage[] {
  if (body.trackingNumber !== undefined) {
    const n = body.trackingNumber.trim();
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
     * Registers the number(s), all or none: a number someone else in the organization expects is
     * a 409 that changes nothing (one scan must mean one recipient); numbers the recipient already
     * expects are skipped (a pasted email twice adds nothing), and asking for only those is a 409.
     * The recipient's row is locked so the open ones never pass EXPECTED_PACKAGES_MAX.
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
          const holders = await repo.holders(tx, organizationId, keys);
          if (holders.some((h) => h.recipientId !== recipientId)) throw conflict(EXPECTED_TAKEN, 'expected_elsewhere');
          const mine = new Set(holders.map((h) => h.matchKey));
          const fresh = wanted.filter((w) => !mine.has(w.matchKey));
          if (fresh.length === 0) throw conflict(EXPECTED_ALREADY_YOURS, 'already_expected');
          if ((await repo.countOpen(tx, organizationId, recipientId)) + fresh.length > EXPECTED_PACKAGES_MAX) {
            throw conflict(EXPECTED_TOO_MANY, 'too_many_expected');
          }
          return repo.insert(tx, organizationId, recipientId, body.label || null, fresh);
        });
      } catch (err) {
        // Two recipients registering one number at the same instant: the index lets one in.
        if (violatedUniqueConstraint(err) === OPEN_KEY_INDEX) throw conflict(EXPECTED_TAKEN, 'expected_elsewhere');
        throw err;
      }
    },

    async remove(caller: RecipientCaller, id: string): Promise<void> {
      if (!(await repo.delete(db, caller.organizationId, caller.recipientId, id))) throw notFound(EXPECTED_NOT_FOUND);
    },

    /** The desk: who expects this tracking number (typed or scanned); 404 when no one does. */
    async match(caller: OrgCaller, tracking: string): Promise<ExpectedMatch> {
      const found = await repo.match(db, caller.organizationId, trackingKey(tracking));
      if (!found) throw notFound(EXPECTED_NO_MATCH);
      return found;
    },
  };
}

export type ExpectedPackagesService = ReturnType<typeof createExpectedPackagesService>;
