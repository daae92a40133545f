/**
 * CSV per RFC 4180 (CRLF line ends; a field with a quote, comma, CR or LF is quoted, inner
 * quotes doubled), with spreadsheet formula injection neutralised: a cell that begins with
 * = + - @, tab or CR gets a leading apostrophe so it is shown as text, never evaluated.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: ReadonlyArray<string | null | undefined>) => `${cells.map(csvCell).join(',')}\r\n`;
