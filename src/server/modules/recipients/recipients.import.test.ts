import { beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { IMPORT_MAX_ROWS, type RecipientImportPreview } from '../../../contract';
import { recipients } from '../../db/schema';
import { adminAndMember, Client, createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const orgWithMember = () => adminAndMember(t);

async function recipientsOf(organizationId: string) {
  return t.db
    .select()
    .from(recipients)
    .where(eq(recipients.organizationId, organizationId))
    .orderBy(asc(recipients.lastName), asc(recipients.firstName));
}

async function preview(c: Client, csv: string) {
  const res = await c.post('/api/recipients/import/preview', { csv });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<RecipientImportPreview>();
}

const values = (v: Partial<RecipientImportPreview['rows'][number]['values']>) => ({
  email: null,
  phone: null,
  unit: null,
  department: null,
  recipientType: 'guest',
  ...v,
});

describe('POST /api/recipients/import/preview', () => {
  it('checks every row, marks duplicates of existing recipients and earlier lines, and writes nothing', async () => {
    const { admin, org } = await orgWithMember();
    const existing = (
      await admin.post('/api/recipients', { firstName: 'Amara', lastName: 'Okafor', email: 'amara@ex.com', unit: '4A' })
    ).json<{ id: string }>();
    const sameNameUnit = (
      await admin.post('/api/recipients', { firstName: 'Ben', lastName: 'Adams', unit: '7' })
    ).json<{ id: string }>();
    // Another organization's recipients are not duplicates.
    const other = new Client(t);
    await other.register();
    await other.createOrganization();
    await other.post('/api/recipients', { firstName: 'Zed', lastName: 'Else', email: 'zed@ex.com' });

    const csv = [
      'First Name,LAST_NAME, Email ,phone,Apartment,Department,Recipient Type,Notes',
      'Dana,Reyes,dana@ex.com,555-0101,12,Sales,Resident,ignored column',
      ',Nobody,not-an-email,,,,,',
      'Eve,Stone,,,,,visitor,',
      'Someone,Else,AMARA@EX.COM,,,,,',
      'BEN,adams,,,7,,,',
      'Dana,Other,Dana@Ex.com,,,,,',
      'dana,reyes,,,12,,employee,',
      'Zed,Else,zed@ex.com,,,,,',
      'Fay,Noone,,,,,,',
    ].join('\n');
    const p = await preview(admin, csv);

    expect(p.summary).toEqual({ total: 9, valid: 3, invalid: 2, duplicates: 4 });
    expect(p.rows).toEqual([
      {
        line: 2,
        values: values({
          firstName: 'Dana',
          lastName: 'Reyes',
          email: 'dana@ex.com',
          phone: '555-0101',
          unit: '12',
          department: 'Sales',
          recipientType: 'resident',
        }),
        errors: [],
        duplicate: null,
      },
      {
        line: 3,
        values: values({ firstName: '', lastName: 'Nobody', email: 'not-an-email' }),
        errors: ['First name is required', 'Invalid email format'],
        duplicate: null,
      },
      {
        line: 4,
        values: values({ firstName: 'Eve', lastName: 'Stone', recipientType: 'visitor' }),
        errors: ['Recipient type must be guest, employee or resident'],
        duplicate: null,
      },
      {
        line: 5,
        values: values({ firstName: 'Someone', lastName: 'Else', email: 'amara@ex.com' }),
        errors: [],
        duplicate: {
          kind: 'existing',
          reason: 'Same email as existing recipient Amara Okafor',
          recipientId: existing.id,
          line: null,
        },
      },
      {
        line: 6,
        values: values({ firstName: 'BEN', lastName: 'adams', unit: '7' }),
        errors: [],
        duplicate: {
          kind: 'existing',
          reason: 'Same name and unit (7) as existing recipient Ben Adams',
          recipientId: sameNameUnit.id,
          line: null,
        },
      },
      {
        line: 7,
        values: values({ firstName: 'Dana', lastName: 'Other', email: 'dana@ex.com' }),
        errors: [],
        duplicate: { kind: 'file', reason: 'Same email as line 2', recipientId: null, line: 2 },
      },
      {
        line: 8,
        values: values({ firstName: 'dana', lastName: 'reyes', unit: '12', recipientType: 'employee' }),
        errors: [],
        duplicate: { kind: 'file', reason: 'Same name and unit (12) as line 2', recipientId: null, line: 2 },
      },
      {
        line: 9,
        values: values({ firstName: 'Zed', lastName: 'Else', email: 'zed@ex.com' }),
        errors: [],
        duplicate: null,
      },
      { line: 10, values: values({ firstName: 'Fay', lastName: 'Noone' }), errors: [], duplicate: null },
    ]);
    expect(await recipientsOf(org.id)).toHaveLength(2);
  });

  it('reads a UTF-8 BOM, CRLF, quoted commas, quotes and newlines, blank lines, and semicolon files', async () => {
    const { admin } = await orgWithMember();
    const csv =
      '\uFEFFfirstname,lastname,email,unit,department\r\n' +
      '"Okafor, Jr.",Amara,a@ex.com,"Block A, 4",R&D\r\n' +
      '\r\n' +
      '"Ben ""Benny""",Adams,,"Tower\r\nNorth",\r\n' +
      ',,,,\r\n' +
      'Carl,Young,,,\r\n';
    const p = await preview(admin, csv);
    expect(p.summary).toEqual({ total: 3, valid: 3, invalid: 0, duplicates: 0 });
    expect(p.rows.map((r) => r.line)).toEqual([2, 4, 7]);
    expect(p.rows.map((r) => r.values)).toEqual([
      values({ firstName: 'Okafor, Jr.', lastName: 'Amara', email: 'a@ex.com', unit: 'Block A, 4', department: 'R&D' }),
      values({ firstName: 'Ben "Benny"', lastName: 'Adams', unit: 'Tower\nNorth' }),
      values({ firstName: 'Carl', lastName: 'Young' }),
    ]);

    const semicolons = await preview(admin, 'Last name;First name;Room\nYoung;Carla;3\n');
    expect(semicolons.rows[0]!.values).toEqual(values({ firstName: 'Carla', lastName: 'Young', unit: '3' }));
  });

  it('accepts a file with only the header', async () => {
    const { admin } = await orgWithMember();
    expect(await preview(admin, 'first name,last name\n')).toEqual({
      rows: [],
      summary: { total: 0, valid: 0, invalid: 0, duplicates: 0 },
    });
  });

  it.each([
    ['', 'The file is empty'],
    ['\uFEFF \r\n\r\n', 'The file is empty'],
    ['email,phone\na@ex.com,1', 'The file is missing the required columns: first name, last name'],
    ['First name,Surname\nA,B', 'The file is missing the required column: last name'],
    ['first name,last name\n"Amara,Okafor', 'The file could not be read as CSV: Quote Not Closed'],
  ])('refuses %j with 400', async (csv, message) => {
    const { admin } = await orgWithMember();
    for (const path of ['/api/recipients/import/preview', '/api/recipients/import']) {
      const res = await admin.post(path, { csv });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(message);
    }
  });

  it(`refuses more than ${IMPORT_MAX_ROWS} rows`, async () => {
    const { admin, org } = await orgWithMember();
    const rows = (n: number) =>
      ['first name,last name', ...Array.from({ length: n }, (_, i) => `P${i},Q${i}`)].join('\n');
    const ok = await preview(admin, rows(IMPORT_MAX_ROWS));
    expect(ok.summary.total).toBe(IMPORT_MAX_ROWS);
    const res = await admin.post('/api/recipients/import', { csv: rows(IMPORT_MAX_ROWS + 1) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`The file has more than ${IMPORT_MAX_ROWS} rows`);
    expect(await recipientsOf(org.id)).toHaveLength(0);
  });

  it('refuses a body without csv and files over 2 MB', async () => {
    const { admin } = await orgWithMember();
    const missing = await admin.post('/api/recipients/import/preview', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('CSV content is required');
    const big = await admin.post('/api/recipients/import/preview', { csv: 'x'.repeat(2 * 1024 * 1024 + 1) });
    expect(big.statusCode).toBe(400);
    expect(big.json().message).toBe('The file is larger than 2 MB');
  });

  it('is admin-only', async () => {
    const { member, org } = await orgWithMember();
    for (const path of ['/api/recipients/import/preview', '/api/recipients/import']) {
      const res = await member.post(path, { csv: 'first name,last name\nA,B' });
      expect(res.statusCode).toBe(403);
    }
    expect(await recipientsOf(org.id)).toHaveLength(0);
  });
});

describe('POST /api/recipients/import', () => {
  const csv = [
    'first name,last name,email,unit,type',
    'Dana,Reyes,dana@ex.com,12,resident',
    'Broken,,,,',
    'Amy,Okafor,AMARA@ex.com,,',
    'Dana,Reyes,,12,',
    'Carl,Young,,,employee',
  ].join('\r\n');

  async function withExisting() {
    const ctx = await orgWithMember();
    await ctx.admin.post('/api/recipients', { firstName: 'Amara', lastName: 'Okafor', email: 'amara@ex.com' });
    return ctx;
  }

  it('inserts the valid rows and leaves duplicates and invalid rows out (skipDuplicates by default)', async () => {
    const { admin, org } = await withExisting();
    const res = await admin.post('/api/recipients/import', { csv });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ created: 2, skippedDuplicates: 2, invalid: 1 });
    const rows = await recipientsOf(org.id);
    expect(rows.map((r) => [r.firstName, r.lastName, r.email, r.unit, r.recipientType, r.isActive])).toEqual([
      ['Amara', 'Okafor', 'amara@ex.com', null, 'guest', true],
      ['Dana', 'Reyes', 'dana@ex.com', '12', 'resident', true],
      ['Carl', 'Young', null, null, 'employee', true],
    ]);
    // Importing the same file again creates nothing.
    const again = await admin.post('/api/recipients/import', { csv });
    expect(again.json()).toEqual({ created: 0, skippedDuplicates: 4, invalid: 1 });
    expect(await recipientsOf(org.id)).toHaveLength(3);
  });

  it('without skipDuplicates refuses rows repeating an email with 409 listing them, and writes nothing', async () => {
    const { admin, org } = await withExisting();
    const res = await admin.post('/api/recipients/import', {
      csv: csv + '\r\nDora,Reyes,Dana@Ex.com,,',
      skipDuplicates: false,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message:
        'Some rows repeat the email of an existing recipient or an earlier line (lines 4, 7). ' +
        'Import with duplicates skipped to leave them out.',
      code: 'duplicate_recipients',
      errors: [
        { path: 'line 4', message: 'Same email as existing recipient Amara Okafor' },
        { path: 'line 7', message: 'Same email as line 2' },
      ],
    });
    expect(await recipientsOf(org.id)).toHaveLength(1);
  });

  it('without skipDuplicates imports rows that only share a name and unit', async () => {
    const { admin, org } = await withExisting();
    const res = await admin.post('/api/recipients/import', {
      csv: 'first name,last name,unit\nAmara,Okafor,\nSam,Lee,3\nsam,lee,3\nBad,',
      skipDuplicates: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ created: 3, skippedDuplicates: 0, invalid: 1 });
    expect(await recipientsOf(org.id)).toHaveLength(4);
  });

  it('writes all rows or none', async () => {
    const { admin, org } = await orgWithMember();
    // A failure in the second insert batch (past the first 1,000 rows) must undo the first.
    // As the owner: the application's role may not create triggers.
    await t.asOwner(`
      create or replace function fail_on_explode() returns trigger language plpgsql as $$
      begin
        if new.first_name = 'Explode' then raise exception 'boom'; end if;
        return new;
      end $$`);
    await t.asOwner(`
      create trigger recipients_explode before insert on recipients
      for each row execute function fail_on_explode()`);
    try {
      const lines = ['first name,last name'];
      for (let i = 0; i < 1500; i++) lines.push(i === 1200 ? 'Explode,Row' : `P${i},Q${i}`);
      const res = await admin.post('/api/recipients/import', { csv: lines.join('\n') });
      expect(res.statusCode).toBe(500);
      expect(await recipientsOf(org.id)).toHaveLength(0);
    } finally {
      await t.asOwner('drop trigger recipients_explode on recipients');
    }
    const lines = ['first name,last name'];
    for (let i = 0; i < 1500; i++) lines.push(`P${i},Q${i}`);
    const res = await admin.post('/api/recipients/import', { csv: lines.join('\n') });
    expect(res.json()).toEqual({ created: 1500, skippedDuplicates: 0, invalid: 0 });
    expect(await recipientsOf(org.id)).toHaveLength(1500);
  });

  it('imports into the caller’s organization only', async () => {
    const { admin, org } = await orgWithMember();
    const other = new Client(t);
    await other.register();
    const theirs = await other.createOrganization();
    await admin.post('/api/recipients/import', { csv: 'first name,last name\nA,B' });
    expect(await recipientsOf(org.id)).toHaveLength(1);
    expect(await recipientsOf(theirs.id)).toHaveLength(0);
  });
});
