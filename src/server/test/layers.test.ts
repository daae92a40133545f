import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The server's floors hold (eslint.config.js): plugins/, lib/, db/, caches.ts, context.ts and
 * http.ts import no module, and no run-time import loops between the server's files. Each rule is
 * shown failing on a planted import, and the tree as it is passes both.
 */

const FLOOR_RULE = 'no-restricted-imports';
const CYCLE_RULE = 'import-x/no-cycle';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: process.cwd() });
});

/** The messages of the two rules for `code` linted as if it were the file at `filePath`. */
async function lint(code: string, filePath: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === FLOOR_RULE || m.ruleId === CYCLE_RULE);
}

const upward = (from: string) =>
  `import { sessionsRepository } from '${from}modules/auth/sessions.repository';\nexport const s = sessionsRepository;\n`;

describe('the server floors', () => {
  it.each([
    ['src/server/plugins/planted.ts', '../'],
    ['src/server/lib/planted.ts', '../'],
    ['src/server/db/planted.ts', '../'],
    ['src/server/caches.ts', './'],
    ['src/server/context.ts', './'],
    ['src/server/http.ts', './'],
  ])('refuse an import of modules/ in %s', async (filePath, from) => {
    const messages = await lint(upward(from), filePath);
    expect(messages.map((m) => m.ruleId)).toEqual([FLOOR_RULE]);
    expect(messages[0]!.message).toContain('never import them');
  });

  it('refuse a type-only import of modules/ too', async () => {
    const code = "import type { UserRow } from '../modules/auth/users.repository';\nexport type U = UserRow;\n";
    expect((await lint(code, 'src/server/plugins/planted.ts')).map((m) => m.ruleId)).toEqual([FLOOR_RULE]);
  });

  it('let the modules, app.ts and the floors tests import modules/', async () => {
    const sibling = "import { usersRepository } from '../auth/users.repository';\nexport const u = usersRepository;\n";
    expect(await lint(sibling, 'src/server/modules/billing/planted.ts')).toEqual([]);
    expect(await lint(upward('./'), 'src/server/planted.ts')).toEqual([]);
    expect(await lint(upward('../'), 'src/server/db/planted.test.ts')).toEqual([]);
  });
});

describe('import cycles on the server', () => {
  it('are refused, naming the loop', async () => {
    // caches.ts imports lib/versioned-cache.ts; versioned-cache importing caches.ts back closes a loop.
    const code = "import { createCaches } from '../caches';\nexport const c = createCaches;\n";
    const messages = await lint(code, 'src/server/lib/versioned-cache.ts');
    expect(messages.map((m) => m.ruleId)).toEqual([CYCLE_RULE]);
    expect(messages[0]!.message).toMatch(/^Dependency cycle detected/);
  });

  it('are refused across modules (billing reading notifications, which reads mail items, which check billing)', async () => {
    const code = "import { fanOut } from '../notifications/fan-out';\nexport const f = fanOut;\n";
    const messages = await lint(code, 'src/server/modules/billing/access.ts');
    expect(messages.map((m) => m.ruleId)).toEqual([CYCLE_RULE]);
    expect(messages[0]!.message).toMatch(/^Dependency cycle via .*mail-items/);
  });

  it('leave type-only imports alone (they are erased)', async () => {
    const code = "import type { Caches } from '../caches';\nexport type C = Caches;\n";
    expect(await lint(code, 'src/server/lib/versioned-cache.ts')).toEqual([]);
  });
});

describe('the tree as it is', () => {
  it('keeps both rules', { timeout: 120_000 }, async () => {
    const results = await eslint.lintFiles(['src/server']);
    const broken = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === FLOOR_RULE || m.ruleId === CYCLE_RULE)
        .map((m) => `${r.filePath}:${m.line} ${m.message}`),
    );
    expect(broken).toEqual([]);
  });
});
