import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mailItemsRepository } from './mail-items.repository';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.resolve(here, '../..');

/** The server's source files (tests left out), relative to src/server. */
function sourceFiles(dir = serverRoot): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path.relative(serverRoot, full)] : [];
  });
}

describe('the mail item writer (issue 25)', () => {
  it('is the only code that writes history rows (the demo seed aside)', () => {
    const writers = sourceFiles().filter((file) =>
      /insert\(mailItemHistory\)|insert into mail_item_history/i.test(
        readFileSync(path.join(serverRoot, file), 'utf8'),
      ),
    );
    // mail-items.columns.ts holds historyAndEvents, the statements' one writer of history and
    // events; the demo seed writes its made-up past directly.
    expect(writers.sort()).toEqual(['modules/demo/demo-seed.ts', 'modules/mail-items/mail-items.columns.ts']);
  });

  it('is the only code that writes mail items (the demo seed aside; erasure goes through scrubItems, issue 42)', () => {
    const writers = sourceFiles().filter((file) =>
      /(insert into|update|delete from) mail_items\b|(insert|update|delete)\(mailItems\)/i.test(
        readFileSync(path.join(serverRoot, file), 'utf8'),
      ),
    );
    expect(writers.sort()).toEqual(['modules/demo/demo-seed.ts', 'modules/mail-items/mail-items.statements.ts']);
  });

  it('announces to the live desk through its one hook: no write path announces a mail item change by hand (issue 42)', () => {
    const announcing = sourceFiles().filter((file) =>
      /publishLiveChanges\(|mailItemChanges\(|'mail-items'\)/.test(readFileSync(path.join(serverRoot, file), 'utf8')),
    );
    // live-events.ts defines them; the writer calls them once, in `announce`
    expect(announcing.sort()).toEqual(['lib/live-events.ts', 'modules/mail-items/mail-items.writes.ts']);
    const writer = readFileSync(path.join(here, 'mail-items.writes.ts'), 'utf8');
    expect(writer.match(/publishLiveChanges\(/g)).toHaveLength(1);
  });

  it('leaves the repository no way to write history, events or items', () => {
    expect(Object.keys(mailItemsRepository).sort()).toEqual(
      [
        'count',
        'findWithRelations',
        'history',
        'holdCalendar',
        'needsRecipientPage',
        'page',
        'pendingSummary',
        'statusTotal',
      ].sort(),
    );
  });

  it('keeps batching, tenant scope and transactions out of the service', () => {
    const service = readFileSync(path.join(here, 'mail-items.service.ts'), 'utf8');
    for (const name of [
      'createBatcher',
      'withTenants',
      'withPgTransaction',
      'runIntakes',
      'applyEdits',
      'checkStorage',
    ]) {
      expect(service, name).not.toContain(name);
    }
  });
});
