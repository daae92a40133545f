/**
 * The print views' paper: a 62 mm continuous roll (Brother QL and its kind: every label or slip
 * is a page of its own, cut after it) or a sheet of A4 or US Letter with several on it.
 */
export type PrintFormat = 'label62' | 'a4' | 'letter';
export type PrintKind = 'labels' | 'slips';

export const PRINT_FORMATS: { value: PrintFormat; label: string; hint: string }[] = [
  { value: 'label62', label: '62 mm roll', hint: 'Brother QL and other 62 mm continuous tape' },
  { value: 'a4', label: 'A4', hint: '210 × 297 mm, cut along the dashed lines' },
  { value: 'letter', label: 'US Letter', hint: '8.5 × 11 in, cut along the dashed lines' },
];

/** The height of one page of the 62 mm roll: a shelf label is a strip, a slip is a tag. */
export const ROLL_LENGTH_MM: Record<PrintKind, number> = { labels: 40, slips: 100 };

/** The CSS of the printed page: its size (which the print dialog and page.pdf take) and margins. */
export function pageRule(format: PrintFormat, kind: PrintKind): string {
  if (format === 'label62') return `@page { size: 62mm ${ROLL_LENGTH_MM[kind]}mm; margin: 0; }`;
  return `@page { size: ${format === 'a4' ? 'A4' : 'letter'}; margin: 10mm; }`;
}

/** Paper width on screen, so the preview is the size it prints. */
export const PAPER_WIDTH: Record<PrintFormat, string> = { label62: '62mm', a4: '210mm', letter: '8.5in' };

const LETTER_REGIONS = new Set(['US', 'CA', 'MX', 'PH', 'CL', 'CO', 'VE', 'GT', 'CR', 'PR', 'DO', 'PA', 'SV', 'BZ']);

const isFormat = (value: unknown): value is PrintFormat => value === 'label62' || value === 'a4' || value === 'letter';

const storageKey = (kind: PrintKind) => `printFormat.${kind}`;

/**
 * The format asked for in the address, else the one last used for this kind of print, else the
 * sheet of the browser's region (Letter in the Americas' Letter countries, A4 elsewhere).
 */
export function initialFormat(kind: PrintKind, fromUrl: string | null): PrintFormat {
  if (isFormat(fromUrl)) return fromUrl;
  try {
    const remembered = localStorage.getItem(storageKey(kind));
    if (isFormat(remembered)) return remembered;
  } catch {
    // storage refused (private mode): fall through
  }
  const region = (navigator.language.split('-')[1] ?? '').toUpperCase();
  return LETTER_REGIONS.has(region) ? 'letter' : 'a4';
}

export function rememberFormat(kind: PrintKind, format: PrintFormat) {
  try {
    localStorage.setItem(storageKey(kind), format);
  } catch {
    // not remembered: the next print view asks again
  }
}
