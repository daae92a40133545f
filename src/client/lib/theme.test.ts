import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { THEME_COLOURS, THEME_PREFERENCES, THEME_STORAGE_KEY, resolveTheme, type Theme } from './theme';

const INIT_SCRIPT = fs.readFileSync(path.resolve(__dirname, '../public/theme-init.js'), 'utf8');

const HTML = fs.readFileSync(path.resolve(__dirname, '../index.html'), 'utf8');
/** index.html's <meta name="theme-color">, which the pre-paint script changes in dark only. */
const HTML_THEME_COLOUR = HTML.match(/<meta name="theme-color" content="([^"]+)"/)?.[1];

/**
 * Runs public/theme-init.js (the pre-paint script) with this stored choice and system theme:
 * the theme it sets, and the browser's theme-color it leaves.
 */
function prePaint(stored: string | null, system: Theme, storageThrows = false) {
  const classes = new Set<string>();
  const meta = { content: HTML_THEME_COLOUR, setAttribute: (name: string, value: string) => (meta.content = value) };
  vm.runInNewContext(INIT_SCRIPT, {
    localStorage: {
      getItem: (key: string) => {
        if (storageThrows) throw new Error('storage disabled');
        return key === THEME_STORAGE_KEY ? stored : null;
      },
    },
    window: { matchMedia: (query: string) => ({ matches: query.includes('dark') && system === 'dark' }) },
    document: {
      documentElement: { classList: { add: (name: string) => classes.add(name) } },
      querySelector: (selector: string) => (selector === 'meta[name="theme-color"]' ? meta : null),
    },
  });
  return { theme: classes.has('dark') ? ('dark' as const) : ('light' as const), themeColour: meta.content };
}
const prePaintTheme = (stored: string | null, system: Theme, storageThrows = false): Theme =>
  prePaint(stored, system, storageThrows).theme;

describe('the theme', () => {
  it('is the system theme for System, and the choice otherwise', () => {
    expect(resolveTheme('system', 'dark')).toBe('dark');
    expect(resolveTheme('system', 'light')).toBe('light');
    expect(resolveTheme('light', 'dark')).toBe('light');
    expect(resolveTheme('dark', 'light')).toBe('dark');
  });

  it('is set before the first paint by the same rule and storage key as the app', () => {
    for (const system of ['light', 'dark'] as const) {
      for (const preference of THEME_PREFERENCES) {
        // System is stored as no entry
        const stored = preference === 'system' ? null : preference;
        expect(prePaintTheme(stored, system), `${preference} on a ${system} system`).toBe(
          resolveTheme(preference, system),
        );
      }
      // an unknown stored value, or storage that refuses: the system decides
      expect(prePaintTheme('sepia', system)).toBe(system);
      expect(prePaintTheme(null, system, true)).toBe(system);
    }
  });

  it("gives the browser the theme's colour before the first paint, the one the app gives it later", () => {
    expect(HTML_THEME_COLOUR).toBe(THEME_COLOURS.light);
    for (const theme of ['light', 'dark'] as const) {
      expect(prePaint(theme, theme === 'dark' ? 'light' : 'dark').themeColour, theme).toBe(THEME_COLOURS[theme]);
    }
  });
});
