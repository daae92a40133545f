import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The server's floors hold (eslint.config.js): plugins/, lib/, db/, caches.ts, context.ts and
 * http.ts import no module, and no run-time import loops between the server's files. The modules
 * sit in tiers and import only lower ones (decision 057), so module folders form no loop either.
 * Each rule is shown failing on a planted import, and the tree as it is passes them all.
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

  it('are refused across modules (plan access reading notifications, which read mail items, which check the plan)', async () => {
    const code = "import { fanOut } from '../notifications/fan-out';\nexport const f = fanOut;\n";
    const messages = await lint(code, 'src/server/modules/organizations/plan-access.ts');
    // Two rules say no: the upward import (tier 1 reading tier 5) and the loop it closes.
    expect(messages.map((m) => m.ruleId).sort()).toEqual([CYCLE_RULE, FLOOR_RULE]);
    expect(messages.find((m) => m.ruleId === CYCLE_RULE)!.message).toMatch(/^Dependency cycle via .*mail-items/);
  });

  it('leave type-only imports alone (they are erased)', async () => {
    const code = "import type { Caches } from '../caches';\nexport type C = Caches;\n";
    expect(await lint(code, 'src/server/lib/versioned-cache.ts')).toEqual([]);
  });
});

describe('the tree as it is', () => {
  it('keeps every rule (floors, tiers, no cycles)', { timeout: 120_000 }, async () => {
    const results = await eslint.lintFiles(['src/server']);
    const broken = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === FLOOR_RULE || m.ruleId === CYCLE_RULE)
        .map((m) => `${r.filePath}:${m.line} ${m.message}`),
    );
    expect(broken).toEqual([]);
  });
});

const MODULES_DIR = 'src/server/modules';
const moduleFolders = () =>
  fs
    .readdirSync(MODULES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/** Every module file that is not a test, with its text. */
function moduleSources(): { file: string; text: string }[] {
  return fs
    .readdirSync(MODULES_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => path.join(MODULES_DIR, file))
    .map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
}

/** import/export ... from '...', import type, side-effect imports and import('...'). */
const SPECIFIER =
  /\b(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The module folder a path lies in, or undefined outside src/server/modules. */
function moduleOf(file: string): string | undefined {
  const relative = path.relative(MODULES_DIR, file);
  return relative.startsWith('..') || !relative.includes(path.sep) ? undefined : relative.split(path.sep)[0];
}

/** The imports between module folders, file by file (`from -> to` as paths). */
function crossModuleImports(sources: { file: string; text: string }[]) {
  return sources.flatMap(({ file, text }) =>
    [...text.matchAll(SPECIFIER)]
      .map((match) => match[1] ?? match[2]!)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => ({ file, target: path.join(path.dirname(file), specifier) }))
      .filter(({ file, target }) => moduleOf(target) && moduleOf(target) !== moduleOf(file))
      .map(({ file, target }) => ({ from: moduleOf(file)!, to: moduleOf(target)!, edge: `${file} -> ${target}` })),
  );
}

/** The strongly connected groups of more than one folder (Tarjan), each sorted. */
function folderLoops(edges: { from: string; to: string }[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) next.set(from, (next.get(from) ?? new Set()).add(to));
  const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        group.push(w);
      } while (w !== v);
      if (group.length > 1) loops.push(group.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return loops;
}

describe('the module tiers', () => {
  const fromMailItems =
    "import { toMailItemDto } from '../mail-items/mail-items.service';\nexport const d = toMailItemDto;\n";

  it('form no loop between module folders: the tree as it is', () => {
    const edges = crossModuleImports(moduleSources());
    // The reader finds the imports it is about (about 70 today): an empty graph has no loop either.
    expect(edges.length).toBeGreaterThan(40);
    expect(edges.map((e) => e.edge)).toContain(
      path.join(MODULES_DIR, 'notifications/fan-out.ts') +
        ' -> ' +
        path.join(MODULES_DIR, 'mail-items/mail-items.repository'),
    );
    expect(folderLoops(edges)).toEqual([]);
  });

  it('would see the loop a planted upward import closes', () => {
    // Organizations read mail items: mail items already read organizations (plan access, usage).
    const planted = { file: path.join(MODULES_DIR, 'organizations/planted.ts'), text: fromMailItems };
    const loops = folderLoops(crossModuleImports([...moduleSources(), planted]));
    expect(loops).toHaveLength(1);
    expect(loops[0]).toEqual(expect.arrayContaining(['mail-items', 'organizations']));
  });

  it('refuse an upward import, naming the tier and the way down', async () => {
    const messages = await lint(fromMailItems, 'src/server/modules/recipients/planted.ts');
    expect(messages.map((m) => m.ruleId)).toEqual([FLOOR_RULE]);
    expect(messages[0]!.message).toContain('modules/recipients is in tier 2');
    expect(messages[0]!.message).toContain('move the shared rule down');
  });

  it('refuse an import of a module of the same tier, from a nested folder, through modules/, and type-only', async () => {
    const sameTier = "import { fanOut } from '../notifications/fan-out';\nexport const f = fanOut;\n";
    expect((await lint(sameTier, 'src/server/modules/pickups/planted.ts')).map((m) => m.ruleId)).toEqual([FLOOR_RULE]);
    const nested =
      "import { toMailItemDto } from '../../mail-items/mail-items.service';\nexport const d = toMailItemDto;\n";
    expect((await lint(nested, 'src/server/modules/recipients/sub/planted.ts')).map((m) => m.ruleId)).toEqual([
      FLOOR_RULE,
    ]);
    const viaModules =
      "import { toMailItemDto } from '../../modules/mail-items/mail-items.service';\nexport const d = toMailItemDto;\n";
    expect((await lint(viaModules, 'src/server/modules/recipients/planted.ts')).map((m) => m.ruleId)).toEqual([
      FLOOR_RULE,
    ]);
    const typeOnly =
      "import type { MailItemsService } from '../mail-items/mail-items.service';\nexport type S = MailItemsService;\n";
    expect((await lint(typeOnly, 'src/server/modules/recipients/planted.ts')).map((m) => m.ruleId)).toEqual([
      FLOOR_RULE,
    ]);
  });

  it('allow a downward import, the own folder and the floors', async () => {
    expect(await lint(fromMailItems, 'src/server/modules/history/planted.ts')).toEqual([]);
    expect(await lint(fromMailItems, 'src/server/modules/mail-items/planted.ts')).toEqual([]);
    const floors =
      "import { AppError } from '../../lib/errors';\nimport type { Deps } from '../../context';\nexport const e = AppError;\nexport type D = Deps;\n";
    expect(await lint(floors, 'src/server/modules/audit/planted.ts')).toEqual([]);
  });

  it('place every module folder in a tier (one outside any tier may import no other module)', async () => {
    const fromAudit =
      "import { auditRepository } from '../audit/audit.repository';\nexport const a = auditRepository;\n";
    const refused: string[] = [];
    for (const module of moduleFolders()) {
      const messages = await lint(fromAudit, `src/server/modules/${module}/planted.ts`);
      if (messages.length > 0) refused.push(`${module}: ${messages[0]!.message}`);
    }
    expect(refused).toEqual([]);
    const unplaced = await lint(fromAudit, 'src/server/modules/unplaced/planted.ts');
    expect(unplaced.map((m) => m.message)).toEqual([expect.stringContaining('is in no tier')]);
  });
});
