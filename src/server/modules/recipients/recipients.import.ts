import { parse } from 'csv-parse/sync';
import {
  IMPORT_MAX_ROWS,
  LANGUAGE_INVALID,
  RecipientBody,
  resolveLanguage,
  type Language,
  type RecipientImportPreview,
  type RecipientImportRow,
} from '../../../contract';
import { badRequest } from '../../lib/errors';
import {
  nameUnitKey,
  type RecipientKeyRow,
  type RecipientRow,
  type RecipientValues,
  type DirectoryColumns,
} from './recipients.repository';

/**
 * CSV import of recipients, as pure functions: read the file, check each row with the contract's
 * RecipientBody, then mark duplicates against the organization's recipients and earlier lines.
 */

type Field = 'firstName' | 'lastName' | 'email' | 'phone' | 'unit' | 'department' | 'recipientType' | 'language';

/** Header names after lower-casing and dropping spaces, underscores and hyphens. */
const HEADER_FIELDS: Record<string, Field> = {
  firstname: 'firstName',
  lastname: 'lastName',
  email: 'email',
  phone: 'phone',
  unit: 'unit',
  apartment: 'unit',
  room: 'unit',
  department: 'department',
  type: 'recipientType',
  recipienttype: 'recipientType',
  language: 'language',
  preferredlanguage: 'language',
  lang: 'language',
};
const REQUIRED: Array<[Field, string]> = [
  ['firstName', 'first name'],
  ['lastName', 'last name'],
];

const normalizeHeader = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

/**
 * A saved column mapping (the roster's, decision 061): field -> the header of the column that
 * fills it, matched like the import's own names (case, spaces, underscores and hyphens aside).
 * `externalId` is a directory feed's id column. Without one, the headers are recognised by name.
 */
type CsvMapping = Partial<Record<Field | 'externalId', string>>;

/** A row's cells; `language` only when the file has that column (the preview then shows it). */
export type CsvRow = {
  line: number;
  raw: Record<Exclude<Field, 'language'>, string> & { language?: string };
  externalId?: string;
};

/** A valid row's recipient, every optional field resolved to a value or null. */
export type ImportValues = Required<Omit<RecipientValues, 'isActive' | 'language' | DirectoryColumns>> & {
  recipientType: RecipientRow['recipientType'];
};

/** A row after validation; `data` is what would be inserted (null when the row has errors). */
export type CheckedRow = {
  line: number;
  values: RecipientImportRow['values'];
  errors: string[];
  data: ImportValues | null;
  /**
   * The language column, resolved (decision 066): kept beside `data` so only the hand import
   * writes it; a directory feed's values (the roster's) stay as they were.
   */
  language?: Language | null;
};

/** A checked row with its duplicate verdict; `emailClash` marks rows that must never be inserted twice. */
export type AnalysedRow = CheckedRow & { duplicate: RecipientImportRow['duplicate']; emailClash: boolean };

type ParsedRecord = { record: string[]; raw: string; info: { lines: number } };

/** The delimiter of the header line: Excel writes ; or tabs in some locales. */
function detectDelimiter(firstLine: string) {
  const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length - 1] as const);
  const [best] = counts.sort((a, b) => b[1] - a[1]);
  return best && best[1] > 0 ? best[0] : ',';
}

/** Reads the file: a header row, then one recipient per non-blank record. Refuses unreadable files with 400. */
export function readRecipientsCsv(csv: string, options: { mapping?: CsvMapping; maxRows?: number } = {}): CsvRow[] {
  const maxRows = options.maxRows ?? IMPORT_MAX_ROWS;
  const text = csv.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (text.trim() === '') throw badRequest('The file is empty', 'import_empty');
  let records: ParsedRecord[];
  try {
    records = parse(text, {
      delimiter: detectDelimiter(text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'))),
      record_delimiter: '\n',
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      // The header, the most rows allowed, and one more to know the file has too many: a file of
      // 500,000 rows is refused after reading 5,002 of them, not all.
      to: maxRows + 2,
      info: true,
      raw: true,
    }) as unknown as ParsedRecord[];
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw badRequest(`The file could not be read as CSV: ${detail}`, 'import_unreadable');
  }

  const [header, ...body] = records;
  if (!header) throw badRequest('The file is empty', 'import_empty');
  const columns = new Map<Field | 'externalId', number>();
  if (options.mapping) {
    const byName = new Map<string, number>();
    header.record.forEach((name, index) => {
      if (!byName.has(normalizeHeader(name))) byName.set(normalizeHeader(name), index);
    });
    const absent: string[] = [];
    for (const [field, name] of Object.entries(options.mapping) as Array<[Field | 'externalId', string | undefined]>) {
      if (!name) continue;
      const index = byName.get(normalizeHeader(name));
      if (index === undefined) absent.push(`"${name}"`);
      else columns.set(field, index);
    }
    if (absent.length > 0) {
      throw badRequest(`The file has no column ${absent.join(', ')} of the saved mapping`, 'import_missing_columns');
    }
  } else {
    header.record.forEach((name, index) => {
      const field = HEADER_FIELDS[normalizeHeader(name)];
      if (field && !columns.has(field)) columns.set(field, index);
    });
  }
  const missing = REQUIRED.filter(([field]) => !columns.has(field)).map(([, label]) => label);
  if (missing.length > 0) {
    throw badRequest(
      `The file is missing the required column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`,
      'import_missing_columns',
    );
  }

  const rows: CsvRow[] = [];
  for (const { record, raw, info } of body) {
    if (record.every((v) => v.trim() === '')) continue;
    if (rows.length >= maxRows) {
      throw badRequest(`The file has more than ${maxRows} rows`, 'import_too_many_rows');
    }
    const cell = (field: Field | 'externalId') => {
      const index = columns.get(field);
      return index === undefined ? '' : (record[index] ?? '');
    };
    rows.push({
      line: startLine(raw, info.lines),
      raw: {
        firstName: cell('firstName'),
        lastName: cell('lastName'),
        email: cell('email'),
        phone: cell('phone'),
        unit: cell('unit'),
        department: cell('department'),
        recipientType: cell('recipientType'),
        ...(columns.has('language') ? { language: cell('language') } : {}),
      },
      ...(columns.has('externalId') ? { externalId: cell('externalId').trim() } : {}),
    });
  }
  return rows;
}

/**
 * The parser reports the line a record ends on; its raw text (with any skipped blank lines in
 * front) tells how many lines a quoted field spans.
 */
function startLine(raw: string, endLine: number) {
  const own = raw.replace(/^\n+/, '').replace(/\n$/, '');
  return endLine - (own.split('\n').length - 1);
}

const blankToNull = (v: string) => (v.trim() === '' ? null : v.trim());

/** Validates one row with the contract's RecipientBody: the same messages as the form. */
export function checkRow({ line, raw }: CsvRow): CheckedRow {
  const type = raw.recipientType.trim().toLowerCase();
  // A tag as other systems write it ('es-MX', 'zh-CN', 'pt_BR') is resolved to ours; an unknown one is the row's error.
  const languageCell = blankToNull(raw.language ?? '');
  const shown = raw.language === undefined ? {} : { language: languageCell };
  const language = languageCell ? resolveLanguage(languageCell) : null;
  const languageErrors = languageCell && !language ? [LANGUAGE_INVALID] : [];
  const result = RecipientBody.safeParse({
    firstName: raw.firstName,
    lastName: raw.lastName,
    email: raw.email,
    phone: raw.phone,
    unit: raw.unit,
    department: raw.department,
    recipientType: type === '' ? undefined : type,
  });
  if (!result.success || languageErrors.length > 0) {
    return {
      line,
      values: {
        firstName: raw.firstName.trim(),
        lastName: raw.lastName.trim(),
        email: blankToNull(raw.email),
        phone: blankToNull(raw.phone),
        unit: blankToNull(raw.unit),
        department: blankToNull(raw.department),
        recipientType: type === '' ? 'guest' : type,
        ...shown,
      },
      errors: [...new Set([...(result.error?.issues.map((i) => i.message) ?? []), ...languageErrors])],
      data: null,
    };
  }
  const d = result.data;
  const data: ImportValues = {
    firstName: d.firstName,
    lastName: d.lastName,
    email: d.email ?? null,
    phone: d.phone ?? null,
    unit: d.unit ?? null,
    department: d.department ?? null,
    recipientType: d.recipientType,
  };
  return { line, values: { ...data, ...shown }, errors: [], data, language };
}

const fullName = (r: { firstName: string; lastName: string }) => `${r.firstName} ${r.lastName}`;
const keyOf = (d: ImportValues) => nameUnitKey(d.firstName, d.lastName, d.unit);

/** The lower-cased emails and name-and-unit keys of the valid rows: what to look up among existing recipients. */
export function lookupKeys(rows: CheckedRow[]) {
  const emails = new Set<string>();
  const keys = new Set<string>();
  for (const { data } of rows) {
    if (!data) continue;
    if (data.email) emails.add(data.email.toLowerCase());
    keys.add(keyOf(data));
  }
  return { emails: [...emails], nameUnitKeys: [...keys] };
}

/**
 * Marks each valid row that repeats an existing recipient or an earlier valid line: by email
 * (case-insensitive) first, then by first name, last name and unit (case-insensitive, a missing
 * unit matching a missing unit); for each, an existing recipient is named before an earlier line.
 */
export function findDuplicates(rows: CheckedRow[], existing: RecipientKeyRow[]): AnalysedRow[] {
  const existingByEmail = new Map<string, RecipientKeyRow>();
  const existingByKey = new Map<string, RecipientKeyRow>();
  for (const r of existing) {
    if (r.email && !existingByEmail.has(r.email.toLowerCase())) existingByEmail.set(r.email.toLowerCase(), r);
    const key = nameUnitKey(r.firstName, r.lastName, r.unit);
    if (!existingByKey.has(key)) existingByKey.set(key, r);
  }
  const lineByEmail = new Map<string, number>();
  const lineByKey = new Map<string, number>();

  return rows.map((row) => {
    const { data } = row;
    if (!data) return { ...row, duplicate: null, emailClash: false };
    const email = data.email?.toLowerCase() ?? null;
    const key = keyOf(data);
    const sameEmail = email ? existingByEmail.get(email) : undefined;
    const sameKey = existingByKey.get(key);
    const emailLine = email ? lineByEmail.get(email) : undefined;
    const keyLine = lineByKey.get(key);
    const nameAndUnit = data.unit ? `name and unit (${data.unit})` : 'name, without a unit,';

    let duplicate: RecipientImportRow['duplicate'] = null;
    if (sameEmail) {
      duplicate = {
        kind: 'existing',
        reason: `Same email as existing recipient ${fullName(sameEmail)}`,
        recipientId: sameEmail.id,
        line: null,
      };
    } else if (emailLine !== undefined) {
      duplicate = { kind: 'file', reason: `Same email as line ${emailLine}`, recipientId: null, line: emailLine };
    } else if (sameKey) {
      duplicate = {
        kind: 'existing',
        reason: `Same ${nameAndUnit} as existing recipient ${fullName(sameKey)}`,
        recipientId: sameKey.id,
        line: null,
      };
    } else if (keyLine !== undefined) {
      duplicate = { kind: 'file', reason: `Same ${nameAndUnit} as line ${keyLine}`, recipientId: null, line: keyLine };
    }

    if (email && !lineByEmail.has(email)) lineByEmail.set(email, row.line);
    if (!lineByKey.has(key)) lineByKey.set(key, row.line);
    return { ...row, duplicate, emailClash: sameEmail !== undefined || emailLine !== undefined };
  });
}

/** The preview reply: every row, and counts that add up (total = valid + invalid + duplicates). */
export function toPreview(rows: AnalysedRow[]): RecipientImportPreview {
  const invalid = rows.filter((r) => r.errors.length > 0).length;
  const duplicates = rows.filter((r) => r.duplicate !== null).length;
  return {
    rows: rows.map(({ line, values, errors, duplicate }) => ({ line, values, errors, duplicate })),
    summary: { total: rows.length, valid: rows.length - invalid - duplicates, invalid, duplicates },
  };
}
