import { useSyncExternalStore } from 'react';
import { STAFF_LANGUAGES, type StaffLanguage } from '@contract';

/**
 * The staff screens' language (issue 44, decision 067), one owner: the account's choice (Account
 * settings, pushed here by the session whenever the signed-in user is read), else the first of
 * the browser's languages we have, else English. 'en-XA' is the pseudo-locale (English made 40 %
 * longer and accented) that the overflow check draws the screens in; it is chosen by this
 * browser's storage only, never offered.
 */
export type ScreenLanguage = StaffLanguage | 'en-XA';

export const PSEUDO_LOCALE = 'en-XA';
/** localStorage key that turns the pseudo-locale on in this browser (the browser journeys set it). */
export const PSEUDO_STORAGE_KEY = 'pigeonhole-pseudo-locale';

let account: StaffLanguage | null = null;
let timeZone: string | undefined;
let current: ScreenLanguage = resolve();
const listeners = new Set<() => void>();

/** The first of the browser's preferred languages that the screens speak ('es-MX' is 'es'). */
export function browserLanguage(preferred: readonly string[] = navigatorLanguages()): StaffLanguage | null {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    const found = STAFF_LANGUAGES.find((language) => language === base);
    if (found) return found;
  }
  return null;
}

function navigatorLanguages(): readonly string[] {
  return typeof navigator === 'undefined'
    ? []
    : navigator.languages?.length
      ? navigator.languages
      : [navigator.language];
}

function pseudoOn(): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(PSEUDO_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

function resolve(): ScreenLanguage {
  if (pseudoOn()) return PSEUDO_LOCALE;
  return account ?? browserLanguage() ?? 'en';
}

function update() {
  const next = resolve();
  if (typeof document !== 'undefined') document.documentElement.lang = next;
  if (next === current) return;
  current = next;
  listeners.forEach((listener) => listener());
}

/** The signed-in account's choice (null: it follows the browser), or null when signed out. */
export function setAccountLanguage(language: StaffLanguage | null) {
  account = language;
  update();
}

/** The current organization's time zone: dates and times on the screens are the organization's. */
export function setDisplayTimeZone(zone: string | undefined) {
  if (zone === timeZone) return;
  timeZone = zone;
  listeners.forEach((listener) => listener());
}

export function screenLanguage(): ScreenLanguage {
  return current;
}

/** The locale dates and numbers are written in: the pseudo-locale writes them as English. */
export function formatLocale(): string {
  return current === PSEUDO_LOCALE ? 'en' : current;
}

export function displayTimeZone(): string | undefined {
  return timeZone;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The screens' language; the component draws again when it (or the organization's time zone) changes. */
export function useScreenLanguage(): ScreenLanguage {
  useSyncExternalStore(subscribe, () => timeZone);
  return useSyncExternalStore(subscribe, () => current);
}

if (typeof document !== 'undefined') document.documentElement.lang = current;
