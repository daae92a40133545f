import { displayTimeZone, formatLocale } from './i18n/language';

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

/*
 * Dates and times are written in the screens' language (lib/i18n/language.ts: the account's
 * choice, else the browser's) and in the current organization's time zone: a desk in Madrid
 * reads its own day, whoever looks (issue 44). The formatters are made once per language, zone
 * and style.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function dateFormat(style: string, options: Intl.DateTimeFormatOptions, locale = formatLocale()): Intl.DateTimeFormat {
  const zone = displayTimeZone();
  const id = `${style}|${locale}|${zone ?? ''}`;
  let format = formatters.get(id);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone });
    formatters.set(id, format);
  }
  return format;
}

const relatives = new Map<string, Intl.RelativeTimeFormat>();
function relativeFormat(): Intl.RelativeTimeFormat {
  const locale = formatLocale();
  let format = relatives.get(locale);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    relatives.set(locale, format);
  }
  return format;
}

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
    if (Math.abs(amount) < size) return relativeFormat().format(amount, unit);
    amount = Math.round(amount / size);
  }
  return formatDateTime(iso);
}

export function formatDateTime(iso: string): string {
  return dateFormat('dateTime', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** Spec §2 table dates: 'MMM dd, yyyy' ("Nov 05, 2026"; "05 nov 2026" in Spanish). */
export function formatDate(iso: string): string {
  return dateFormat('table', { month: 'short', day: '2-digit', year: 'numeric' }).format(new Date(iso));
}

const ordinals = new Intl.PluralRules('en-US', { type: 'ordinal' });
const suffixes: Record<string, string> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };

/** Spec §2 dialog dates: 'PPP' ("November 24th, 2026"; "24 de noviembre de 2026" in Spanish). */
export function formatLongDate(iso: string): string {
  if (formatLocale() !== 'en') return dateFormat('long', { dateStyle: 'long' }).format(new Date(iso));
  return dateFormat('long', { month: 'long', day: 'numeric', year: 'numeric' }, 'en-US')
    .formatToParts(new Date(iso))
    .map((p) => (p.type === 'day' ? `${p.value}${suffixes[ordinals.select(Number(p.value))]}` : p.value))
    .join('');
}

/**
 * The last day of a hold ("Thu, Dec 3"): the server keeps the moment it ends, the midnight after
 * that day in the organization's timezone, so the day is the one just before it.
 */
export function formatHoldDay(heldUntil: string): string {
  return dateFormat('holdDay', { weekday: 'short', month: 'short', day: 'numeric' }).format(
    new Date(Date.parse(heldUntil) - 1),
  );
}

/** Whether a hold (a mail item's heldUntil) is still running. */
export const isHeld = (heldUntil: string | null, now = Date.now()): heldUntil is string =>
  heldUntil !== null && Date.parse(heldUntil) > now;
