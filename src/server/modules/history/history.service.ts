import { Readable } from 'node:stream';
import type { z } from 'zod';
import {
  HISTORY_CSV_COLUMNS,
  collectorOf,
  IDENTIFIED_BY_LABELS,
  NEEDS_RECIPIENT,
  historyFileName,
  type HistoryFilter,
  type HistoryListQuery,
  type HistoryStats,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import { jsonListPage, type ListPage } from '../../http';
import type { DbOrTx } from '../../db/client';
import { badRequest, notFound } from '../../lib/errors';
import {
  mailItemExportBatch,
  mailItemFilterStats,
  mailItemsRepository,
  type MailItemKeyset,
  type MailItemSetFilters,
} from '../mail-items/mail-items.repository';
import { settingsRepository } from '../settings/settings.repository';
import { valueFromList } from '../settings/list-values';
import { csvLine } from './history.csv';
import { historyRepository } from './history.repository';

type FilterInput = z.output<typeof HistoryFilter>;
type ListInput = z.output<typeof HistoryListQuery>;

/** Rows per export query: large enough to be cheap per row, small enough to keep memory flat. */
export const EXPORT_BATCH_ROWS = 2000;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The filter as the mail-item queries take it, plus what the export needs. */
export type ResolvedHistoryFilter = { filters: MailItemSetFilters; timezone: string; today: string };

/**
 * The export's CSV text, header first, produced batch by batch: each batch is one keyset query
 * (`(arrived_at, id) < last row`), so memory holds one batch whatever the size of the range.
 */
export async function* historyCsv(
  db: DbOrTx,
  organizationId: string,
  { filters, timezone }: Pick<ResolvedHistoryFilter, 'filters' | 'timezone'>,
  batchRows = EXPORT_BATCH_ROWS,
): AsyncGenerator<string> {
  yield csvLine(HISTORY_CSV_COLUMNS);
  let after: MailItemKeyset | undefined;
  for (;;) {
    const rows = await mailItemExportBatch(db, organizationId, filters, timezone, after, batchRows);
    if (rows.length === 0) return;
    let chunk = '';
    for (const r of rows) {
      const recipient =
        r.recipientFirstName !== null || r.recipientLastName !== null
          ? `${r.recipientFirstName ?? ''} ${r.recipientLastName ?? ''}`.trim()
          : '';
      const proof = [r.signed && 'signature', r.photographed && 'photo'].filter(Boolean).join(' and ');
      chunk += csvLine([
        r.arrived,
        r.type,
        recipient,
        r.sender,
        r.trackingNumber,
        r.status,
        r.delivered,
        // A delivered item says plainly when nobody's collection was recorded (issue 41 item 6).
        collectorOf(r),
        r.identifiedBy && IDENTIFIED_BY_LABELS[r.identifiedBy],
        proof,
      ]);
    }
    yield chunk;
    if (rows.length < batchRows) return;
    after = rows[rows.length - 1]!.keyset;
  }
}

export function createHistoryService({ db, reads, caches }: Deps) {
  const settingsOf = ({ organizationId, dataVersion }: OrgCaller) =>
    caches.settings.getOrLoad(organizationId, dataVersion, () => settingsRepository.get(db, organizationId));

  /**
   * `range` counts whole days in the organization's timezone (1 = since today's midnight,
   * 0 = all time). An explicit dateFrom or dateTo replaces the range: a date-only value is a
   * whole day in the organization's timezone (dateTo includes its whole day), a date-time is
   * taken as given, and a missing side is open. type and status must be in the organization's lists.
   */
  async function resolve(caller: OrgCaller, q: FilterInput): Promise<ResolvedHistoryFilter> {
    const { organizationId } = caller;
    const fromDay = q.dateFrom && DATE_ONLY.test(q.dateFrom) ? q.dateFrom : null;
    const toDay = q.dateTo && DATE_ONLY.test(q.dateTo) ? q.dateTo : null;
    const [bounds, settings] = await Promise.all([
      historyRepository.bounds(db, organizationId, Number(q.range), fromDay, toDay),
      settingsOf(caller),
    ]);
    if (!bounds) throw notFound('Organization not found');

    let dateFrom: Date | undefined;
    let dateTo: Date | undefined;
    if (q.dateFrom || q.dateTo) {
      if (q.dateFrom) dateFrom = fromDay ? bounds.fromDayStart! : new Date(q.dateFrom);
      // The repository's upper bound is inclusive: the last millisecond of the day.
      if (q.dateTo) dateTo = toDay ? new Date(bounds.toDayEnd!.getTime() - 1) : new Date(q.dateTo);
      if (dateFrom && dateTo && dateFrom > dateTo)
        throw badRequest('dateFrom must not be after dateTo', 'invalid_range');
    } else {
      dateFrom = bounds.rangeStart ?? undefined;
    }

    return {
      filters: {
        type: q.type ? valueFromList(settings.packageTypes, q.type, 'Unknown package type') : undefined,
        // items waiting for a recipient (decision 041) are in History too, under their own status
        statuses: q.status
          ? [valueFromList([...settings.customStatuses, NEEDS_RECIPIENT], q.status, 'Unknown status')]
          : undefined,
        dateFrom,
        dateTo,
        search: q.search || undefined,
      },
      timezone: bounds.timezone,
      today: bounds.today,
    };
  }

  return {
    /**
     * A page of the filtered items, newest first, as its JSON reply, and the total of the whole
     * filter. Cached like the other mail-item lists (cleared by any write to the organization).
     */
    async listPage(caller: OrgCaller, q: ListInput): Promise<ListPage> {
      return caches.mailItemLists.getOrLoad(
        `${caller.organizationId}|history|${JSON.stringify(q)}`,
        caller.dataVersion,
        async () => {
          const { filters } = await resolve(caller, q);
          // The filter's settings on the primary; the rows on the replica when it has caught up.
          const { json, total } = await reads.run(caller, (from) =>
            mailItemsRepository.page(from, caller.organizationId, {
              ...filters,
              order: 'desc',
              limit: q.limit,
              offset: q.offset,
            }),
          );
          return jsonListPage(json, total);
        },
      );
    },

    /** The four cards over the whole filter (never the page), from one aggregate; cached like the lists. */
    async stats(caller: OrgCaller, q: FilterInput): Promise<HistoryStats> {
      return caches.historyStats.getOrLoad(
        `${caller.organizationId}|${JSON.stringify(q)}`,
        caller.dataVersion,
        async () => {
          const { filters } = await resolve(caller, q);
          const s = await reads.run(caller, (from) => mailItemFilterStats(from, caller.organizationId, filters));
          return {
            totalItems: s.total,
            delivered: s.delivered,
            pending: s.pending,
            deliveryRate: s.total === 0 ? 0 : Math.round((s.delivered / s.total) * 100),
          };
        },
      );
    },

    /**
     * The filter is checked before anything is sent (so bad input still answers a JSON 400); the
     * rows then stream in keyset batches, each read only when the client has taken the last.
     */
    async export(caller: OrgCaller, q: FilterInput): Promise<{ fileName: string; body: Readable }> {
      const resolved = await resolve(caller, q);
      // Chosen once: every batch of one export reads the same server.
      const from = await reads.pick(caller);
      return {
        fileName: historyFileName(resolved.today),
        body: Readable.from(historyCsv(from, caller.organizationId, resolved)),
      };
    },
  };
}

export type HistoryService = ReturnType<typeof createHistoryService>;
