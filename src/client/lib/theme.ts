import { useSyncExternalStore } from 'react';

/*
 * The colour theme: the system's (prefers-color-scheme) unless the person chose Light or Dark in
 * Account settings. The choice lives in this browser's localStorage; public/theme-init.js reads the
 * same key and sets <html class="dark"> before the first paint (an inline script would be blocked
 * by the Content-Security-Policy, which allows scripts from our own origin only), and the browser's
 * theme-color to match. This module keeps both in step afterwards: a new choice, the system
 * switching, another tab choosing.
 */

export type ThemePreference = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

/** Also read by public/theme-init.js: change both together. */
export const THEME_STORAGE_KEY = 'pigeonhole-theme';

export const THEME_PREFERENCES: readonly ThemePreference[] = ['system', 'light', 'dark'];

const DARK_QUERY = '(prefers-color-scheme: dark)';

/**
 * The browser's own colour (<meta name="theme-color">: a phone's address bar, an installed app's
 * title bar) for each theme: the brand indigo in light, as index.html says, and the dark canvas
 * (slate-950) in dark. Also written by public/theme-init.js: change both together.
 */
export const THEME_COLOURS: Readonly<Record<Theme, string>> = { light: '#4f46e5', dark: '#020618' };

function isPreference(value: unknown): value is ThemePreference {
  return value === 'system' || value === 'light' || value === 'dark';
}

export function readThemePreference(): ThemePreference {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return isPreference(stored) ? stored : 'system';
  } catch {
    // storage disabled (a locked-down browser): follow the system
    return 'system';
  }
}

function systemTheme(): Theme {
  return typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

/** The theme a preference shows now. */
export function resolveTheme(preference: ThemePreference, system: Theme = systemTheme()): Theme {
  return preference === 'system' ? system : preference;
}

const listeners = new Set<() => void>();
let preference: ThemePreference = typeof window === 'undefined' ? 'system' : readThemePreference();
let theme: Theme = typeof window === 'undefined' ? 'light' : resolveTheme(preference);

function apply() {
  theme = resolveTheme(preference);
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLOURS[theme]);
  for (const listener of listeners) listener();
}

/** Remembers the choice in this browser and shows it at once. */
export function setThemePreference(next: ThemePreference) {
  preference = next;
  try {
    if (next === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, next);
  } catch {
    // not remembered, but shown for this visit
  }
  apply();
}

let watching = false;

/** Follows the system's setting and other tabs' choices; call once at start-up. */
export function watchTheme() {
  if (watching || typeof window === 'undefined') return;
  watching = true;
  apply();
  matchMedia(DARK_QUERY).addEventListener('change', () => {
    if (preference === 'system') apply();
  });
  window.addEventListener('storage', (event) => {
    if (event.key !== THEME_STORAGE_KEY && event.key !== null) return;
    preference = readThemePreference();
    apply();
  });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The person's choice: System, Light or Dark. */
export function useThemePreference(): ThemePreference {
  return useSyncExternalStore(
    subscribe,
    () => preference,
    () => 'system',
  );
}

/** The theme on screen now, for what CSS cannot colour (chart lines drawn by a library). */
export function useTheme(): Theme {
  return useSyncExternalStore(
    subscribe,
    () => theme,
    () => 'light',
  );
}
