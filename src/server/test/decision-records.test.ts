import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** docs/decisions: every record on the one template, and each listed once in the index (issue 25). */
const folder = path.resolve('docs/decisions');
const records = fs.readdirSync(folder).filter((f) => /^\d{3}-.+\.md$/.test(f));
const index = fs.readFileSync(path.join(folder, 'README.md'), 'utf8');

describe('decision records', () => {
  it.each(records)('%s has a title, Date, Status, Context, Decision and Consequences in that order', (file) => {
    const text = fs.readFileSync(path.join(folder, file), 'utf8');
    expect(text).toMatch(new RegExp(`^# ${file.slice(0, 3)}: \\S`));
    const at = ['\nDate: ', '\nStatus: ', '\n## Context\n', '\n## Decision\n', '\n## Consequences\n'].map((h) =>
      text.indexOf(h),
    );
    expect(
      at.every((i) => i > 0),
      `${file}: ${JSON.stringify(at)}`,
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('lists every record once in docs/decisions/README.md', () => {
    for (const file of records) expect(index.split(`](${file})`).length - 1, file).toBe(1);
  });
});
