import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

export type HistoryBoundsRow = {
  timezone: string;
  /** Today in the organization's timezone, YYYY-MM-DD. */
  today: string;
  /** Local midnight `days - 1` days ago; null for all time (0). */
  rangeStart: Date | null;
  /** Local midnight starting the day `fromDay`. */
  fromDayStart: Date | null;
  /** Local midnight ending the day `toDay` (the next day's start, exclusive). */
  toDayEnd: Date | null;
};

type Raw = {
  timezone: string;
  today: string;
  range_start: Date | string | null;
  from_day_start: Date | string | null;
  to_day_end: Date | string | null;
};

const asDate = (v: Date | string | null) => (v === null ? null : new Date(v));

export const historyRepository = {
  /**
   * Day boundaries in the organization's timezone, computed by Postgres (daylight saving
   * included). undefined when the organization does not exist.
   */
  async bounds(
    db: DbOrTx,
    organizationId: string,
    days: number,
    fromDay: string | null,
    toDay: string | null,
  ): Promise<HistoryBoundsRow | undefined> {
    const result = await db.execute<Raw>(sql`
      select
        o.timezone,
        to_char(now() at time zone o.timezone, 'YYYY-MM-DD') as today,
        case when ${days}::int > 0 then
          (date_trunc('day', now() at time zone o.timezone) - make_interval(days => ${days}::int - 1))
            at time zone o.timezone
        end as range_start,
        (${fromDay}::date)::timestamp at time zone o.timezone as from_day_start,
        ((${toDay}::date) + 1)::timestamp at time zone o.timezone as to_day_end
      from organizations o
      where o.id = ${organizationId}`);
    const row = result.rows[0];
    if (!row) return undefined;
    return {
      timezone: row.timezone,
      today: row.today,
      rangeStart: asDate(row.range_start),
      fromDayStart: asDate(row.from_day_start),
      toDayEnd: asDate(row.to_day_end),
    };
  },
};
