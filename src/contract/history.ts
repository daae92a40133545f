import { z } from 'zod';
import { isoDateParam } from './common';
import { limitParam, offsetParam } from './pagination';

/** Spec §9 "History ranges": Today (1), 7, 30, 90 days, All time (0); default 7. */
export const HISTORY_RANGES = ['1', '7', '30', '90', '0'] as const;
export const HistoryRange = z.enum(HISTORY_RANGES, { message: 'range must be 1, 7, 30, 90 or 0 (all time)' });

/**
 * The History filter, shared by the list, the stat cards and the export. `range` counts whole
 * days in the organization's timezone (1 = today); explicit dateFrom/dateTo override it.
 * type and status must be in the organization's lists, or needs_recipient (decision 041); 400 otherwise.
 */
export const HistoryFilter = z
  .object({
    range: HistoryRange.default('7'),
    dateFrom: isoDateParam('dateFrom must be an ISO date or date-time').optional(),
    dateTo: isoDateParam('dateTo must be an ISO date or date-time').optional(),
    type: z.string().trim().max(50, 'type must be at most 50 characters').optional(),
    status: z.string().trim().max(50, 'status must be at most 50 characters').optional(),
    /** Tracking number, sender, recipient name or collector. */
    search: z.string().trim().max(200, 'search must be at most 200 characters').optional(),
  })
  .refine((q) => !q.dateFrom || !q.dateTo || Date.parse(q.dateFrom) <= Date.parse(q.dateTo), {
    message: 'dateFrom must not be after dateTo',
    path: ['dateFrom'],
  });
export type HistoryFilter = z.input<typeof HistoryFilter>;

/** GET /api/history: MailItem[] newest first, total in X-Total-Count. */
export const HistoryListQuery = HistoryFilter.and(z.object({ limit: limitParam(200, 50), offset: offsetParam }));

/** GET /api/history/stats: the four cards, over the whole filter (not the loaded page). */
export const HistoryStats = z.object({
  totalItems: z.number().int(),
  delivered: z.number().int(),
  /** Not yet handed over (pending or notified). */
  pending: z.number().int(),
  /** delivered / total, rounded to a whole percent; 0 without items. */
  deliveryRate: z.number().int(),
});
export type HistoryStats = z.infer<typeof HistoryStats>;

/** GET /api/history/export (text/csv, streamed): file name and columns per spec §7. */
export const HISTORY_CSV_COLUMNS = [
  'Date',
  'Type',
  'Recipient',
  'Sender',
  'Tracking',
  'Status',
  'Delivered',
  // Who collected and how (decision 031): the proof's facts, never its images.
  'Collected by',
  'Identified by',
  'Proof',
] as const;
export const historyFileName = (date: string) => `mailroom-history-${date}.csv`;

/** GET /api/analytics?range=: what the reports screen draws, each series also shown as a table. */
export const AnalyticsQuery = z.object({ range: HistoryRange.default('30') });
export const Analytics = z.object({
  range: HistoryRange,
  /** One entry per day of the range (organization timezone), zero days included; all-time: per day since the first item. */
  perDay: z.array(z.object({ date: z.string(), count: z.number().int() })),
  byCourier: z.array(z.object({ name: z.string(), count: z.number().int() })),
  byType: z.array(z.object({ name: z.string(), count: z.number().int() })),
  /** Arrival to hand-over, over items delivered in the range; null without any. */
  pickupHours: z.object({ average: z.number().nullable(), p90: z.number().nullable() }),
  deliveryRate: z.number().int(),
  overdue: z.number().int(),
  /** 24 entries, hour 0–23 in the organization's timezone. */
  busiestHours: z.array(z.object({ hour: z.number().int(), count: z.number().int() })),
  topRecipients: z.array(z.object({ recipientId: z.uuid(), name: z.string(), count: z.number().int() })),
});
export type Analytics = z.infer<typeof Analytics>;

/** GET /api/dashboard/trends: the computed texts under the dashboard cards. */
export const DashboardTrends = z.object({
  /** Items today versus yesterday up to the same time of day, in percent; null when yesterday had none. */
  todayVsYesterdayPercent: z.number().int().nullable(),
  overdue: z.number().int(),
  newRecipientsThisWeek: z.number().int(),
  /** Delivery rate of the last 30 days minus the 30 before, in percentage points. */
  deliveryRateChange: z.number().int(),
});
export type DashboardTrends = z.infer<typeof DashboardTrends>;
