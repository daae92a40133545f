interface Person {
  firstName: string | null;
  lastName: string | null;
  username?: string;
  email: string;
}

/** First and last name, else the username, else the email. */
export function displayName(person: Person): string {
  const full = [person.firstName, person.lastName].filter(Boolean).join(' ').trim();
  return full || person.username || person.email;
}

/** Up to two initials for an avatar. */
export function initials(person: Person): string {
  const first = person.firstName?.trim()[0];
  const last = person.lastName?.trim()[0];
  if (first || last) return `${first ?? ''}${last ?? ''}`.toUpperCase();
  return displayName(person).slice(0, 2).toUpperCase();
}

/** "certified_mail" -> "Certified Mail". */
export function humanize(value: string): string {
  return value
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const steps: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
];

/** "5 minutes ago", "yesterday"; a calendar date once it is over a week old. */
export function relativeTime(iso: string, now = Date.now()): string {
  const date = new Date(iso);
  let amount = Math.round((date.getTime() - now) / 1000);
  for (const [unit, size] of steps) {
    if (Math.abs(amount) < size) return relative.format(amount, unit);
    amount = Math.round(amount / size);
  }
  return dateTime.format(date);
}

export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

const tableDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: '2-digit', year: 'numeric' });

/** Spec §2 table dates: 'MMM dd, yyyy' ("Nov 05, 2026"). */
export function formatDate(iso: string): string {
  return tableDate.format(new Date(iso));
}

const longDate = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
const ordinals = new Intl.PluralRules('en-US', { type: 'ordinal' });
const suffixes: Record<string, string> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };

/** Spec §2 dialog dates: 'PPP' ("November 24th, 2026"). */
export function formatLongDate(iso: string): string {
  return longDate
    .formatToParts(new Date(iso))
    .map((p) => (p.type === 'day' ? `${p.value}${suffixes[ordinals.select(Number(p.value))]}` : p.value))
    .join('');
}

const holdDay = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric' });

/**
 * The last day of a hold ("Thu, Dec 3"): the server keeps the moment it ends, the midnight after
 * that day in the organization's timezone, so the day is the one just before it.
 */
export function formatHoldDay(heldUntil: string): string {
  return holdDay.format(new Date(Date.parse(heldUntil) - 1));
}

/** Whether a hold (a mail item's heldUntil) is still running. */
export const isHeld = (heldUntil: string | null, now = Date.now()): heldUntil is string =>
  heldUntil !== null && Date.parse(heldUntil) > now;
