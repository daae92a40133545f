/** A pickup time for people: minutes under an hour, hours under two days, then days. */
export function formatHours(hours: number | null): string {
  if (hours === null) return '—';
  if (hours < 1) return `${Math.round(hours * 60)} min`;
  if (hours < 48) return `${hours.toFixed(1)} h`;
  return `${(hours / 24).toFixed(1)} days`;
}

/** '2026-11-21' as 'Nov 21' (the date is already a day of the organization's timezone). */
export function formatDay(date: string, withYear = false): string {
  return new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    ...(withYear ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(new Date(`${date}T00:00:00Z`));
}

/** 0 as '00:00', 13 as '13:00'. */
export const formatHour = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
