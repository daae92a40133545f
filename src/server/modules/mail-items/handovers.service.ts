import type { z } from 'zod';
import {
  HANDOVER_NOT_FOUND,
  HANDOVER_PHOTO_REQUIRED,
  IDENTIFIED_BY_LABELS,
  MIXED_RECIPIENTS,
  PICKUP_CODE_INACTIVE,
  PICKUP_CODE_REQUIRED,
  SIGNATURE_REQUIRED,
  TOO_MANY_SIGNATURES,
  pickupCodeNotTheirs,
  type HandOverBody,
  type Handover,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import { badRequest, conflict, notFound, tooManyRequests } from '../../lib/errors';
import * as rateLimiter from '../../lib/rate-limiter';
import { iso } from '../../lib/time';
import { decodePhotoData, processPhoto } from '../photos/photo-processing';
import { checkSignatureHeader, decodeSignatureData, processSignature } from '../photos/signature-processing';
import { tryPickupCode } from './pickup-code-misses';
import { settingsRepository } from '../settings/settings.repository';
import { collectorsOf, handoversRepository, recordHandover, type RecordedHandover } from './handovers.repository';
import { editOf, refusalError } from './mail-items.service';
import { createMailItemWriter, type Queryable, type VersionedItem } from './mail-items.writes';
import { type Answered, type IdempotencyClaim } from './idempotency';
import * as transitions from './transitions';

export type HandOverInput = z.output<typeof HandOverBody>;

/** Names compared as a person reads them: case, spacing and word order do not matter. */
const nameKey = (name: string) => name.toLowerCase().split(/\s+/).filter(Boolean).sort().join(' ');

export const proxyReasonRequired = (collector: string, recipient: string) =>
  `${collector} is not on ${recipient}'s list of people who may collect. Say why they collect for them.`;

/**
 * Signatures decoded per organization in a minute (decision 050): a desk hands over a few a minute
 * at its busiest; more is somebody feeding the decoder.
 */
export const SIGNATURES_PER_ORGANIZATION = 30;
const SIGNATURE_WINDOW_SECONDS = 60;

/** What a hand-over was given with, for its items' history rows. */
type Proof = RecordedHandover & { input: HandOverInput };

export function createHandoversService({ db, caches, log }: Deps) {
  const writer = createMailItemWriter(db.$client, log);

  /**
   * The items' one recipient (or none), whether the collector may take them without a reason, and,
   * when the desk says the collector was identified by pickup code, that the code shown is the
   * recipient's current one and the recipient is active (decision 050).
   */
  async function checkCollector(tx: Queryable, organizationId: string, items: VersionedItem[], input: HandOverInput) {
    const recipientIds = new Set(items.map((i) => i.recipientId));
    if (recipientIds.size > 1) throw conflict(MIXED_RECIPIENTS, 'mixed_recipients');
    const [recipientId = null] = recipientIds;
    const collectors = recipientId ? await collectorsOf(tx, organizationId, recipientId) : undefined;
    const fullName = collectors ? `${collectors.firstName} ${collectors.lastName}` : '';
    if (input.identifiedBy === 'pickup_code') {
      if (!collectors || collectors.pickupCode !== input.pickupCode) {
        throw badRequest(pickupCodeNotTheirs(fullName || 'the recipient'), 'pickup_code_mismatch');
      }
      if (!collectors.isActive) throw conflict(PICKUP_CODE_INACTIVE, 'recipient_inactive');
    }
    if (!recipientId || input.proxyReason || !collectors) return recipientId;
    const allowed = [fullName, ...collectors.proxies].map(nameKey);
    if (!allowed.includes(nameKey(input.collectorName))) {
      throw badRequest(proxyReasonRequired(input.collectorName, fullName), 'proxy_reason_required');
    }
    return recipientId;
  }

  return {
    /**
     * Hands items over with proof (decision 031): the organization's requirements are checked and
     * the signature and photo re-encoded before any transaction opens; then the proof and every
     * item are written together, or nothing is.
     */
    async handOver(caller: OrgCaller, input: HandOverInput): Promise<Handover> {
      return (await this.handOverAnswered(caller, input)).body as Handover;
    },

    /**
     * `handOver` as its answer. With a claim (Idempotency-Key, decision 044) the key commits with
     * the proof and stores the proof's id; a repeat reads the proof again (it never changes).
     */
    async handOverAnswered(caller: OrgCaller, input: HandOverInput, claim?: IdempotencyClaim): Promise<Answered> {
      const { organizationId, userId } = caller;
      const settings = await caches.settings.getOrLoad(organizationId, caller.dataVersion, () =>
        settingsRepository.get(db, organizationId),
      );
      if (settings.handoverRequiresSignature && !input.signatureData) {
        throw badRequest(SIGNATURE_REQUIRED, 'signature_required');
      }
      if (settings.handoverRequiresPhoto && !input.photoData) {
        throw badRequest(HANDOVER_PHOTO_REQUIRED, 'handover_photo_required');
      }
      if (input.identifiedBy === 'pickup_code' && !input.pickupCode) {
        throw badRequest(PICKUP_CODE_REQUIRED, 'pickup_code_required');
      }
      // The signature's header first (microseconds), then the organization's rate, and only then
      // the decoding, off the event loop (decision 050).
      const signatureBytes = input.signatureData ? decodeSignatureData(input.signatureData) : undefined;
      if (signatureBytes) {
        checkSignatureHeader(signatureBytes);
        const limited = await rateLimiter.hit(
          db,
          `signatures:org:${organizationId}`,
          SIGNATURES_PER_ORGANIZATION,
          SIGNATURE_WINDOW_SECONDS,
        );
        if (!limited.allowed) throw tooManyRequests(TOO_MANY_SIGNATURES, limited.retryAfterSeconds);
      }
      // A code shown at the desk is a code tried: it counts with the lookup's misses until it matches.
      const codeAttempt = input.identifiedBy === 'pickup_code' ? await tryPickupCode(db, caller) : undefined;
      const signature = signatureBytes ? await processSignature(signatureBytes) : undefined;
      const photo = input.photoData ? await processPhoto(decodePhotoData(input.photoData)) : undefined;
      const at = new Date();

      const record = async (tx: Queryable, items: VersionedItem[]): Promise<Proof> => {
        const recipientId = await checkCollector(tx, organizationId, items, input);
        const recorded = await recordHandover(tx, {
          organizationId,
          recipientId,
          collectorName: input.collectorName,
          identifiedBy: input.identifiedBy,
          proxyReason: input.proxyReason ?? null,
          signature,
          photo,
          handedOverBy: userId,
          apiKeyId: caller.apiKeyId ?? null,
        });
        return { ...recorded, input };
      };
      const plan = (before: VersionedItem, recorded: Proof) => {
        const change = transitions.handOver(
          before,
          {
            id: recorded.id,
            collectorName: input.collectorName,
            identified: IDENTIFIED_BY_LABELS[input.identifiedBy],
            signed: Boolean(signature),
            photographed: Boolean(photo),
            proxyReason: input.proxyReason ?? null,
            apiKeyName: recorded.apiKeyName,
          },
          { actor: userId, at },
        );
        if (!change.ok) throw refusalError(change);
        return editOf(before, change, { organizationId, userId, photo: undefined, removePhoto: false });
      };
      if (claim) {
        const answered = await writer.handOverTogetherOnce(organizationId, input.itemIds, record, plan, claim, (r) => ({
          statusCode: 201,
          body: { id: r.proof.id },
        }));
        await codeAttempt?.found();
        return { ...answered, body: await this.get(caller, (answered.body as { id: string }).id) };
      }
      const { proof } = await writer.handOverTogether<Proof>(organizationId, input.itemIds, record, plan);
      await codeAttempt?.found();
      return { statusCode: 201, body: await this.get(caller, proof.id), replayed: false };
    },

    async get(caller: OrgCaller, id: string): Promise<Handover> {
      const found = await handoversRepository.find(db, caller.organizationId, id);
      if (!found) throw notFound(HANDOVER_NOT_FOUND);
      return {
        id: found.id,
        recipientId: found.recipientId,
        collectorName: found.collectorName,
        identifiedBy: found.identifiedBy,
        proxyReason: found.proxyReason,
        signatureUrl: found.signaturePhotoId ? `/api/photos/${found.signaturePhotoId}` : null,
        photoUrl: found.photoId ? `/api/photos/${found.photoId}` : null,
        handedOverBy: found.staff && {
          id: found.staff.id,
          firstName: found.staff.firstName ?? '',
          lastName: found.staff.lastName ?? '',
        },
        apiKeyName: found.apiKeyName,
        createdAt: iso(found.createdAt),
        itemIds: found.itemIds,
      };
    },
  };
}

export type HandoversService = ReturnType<typeof createHandoversService>;
