import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** `npm run audit:deps` on a made-up lock file: it must catch what the vendored list names. */
function audit(packages: Record<string, object>, advisories = 'scripts/advisories.json') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-'));
  const lockfile = path.join(dir, 'package-lock.json');
  fs.writeFileSync(lockfile, JSON.stringify({ lockfileVersion: 3, packages: { '': { name: 'x' }, ...packages } }));
  const run = spawnSync(
    process.execPath,
    ['scripts/audit-deps.mjs', '--lockfile', lockfile, '--advisories', advisories],
    {
      encoding: 'utf8',
    },
  );
  return { status: run.status, output: run.stdout + run.stderr, dir };
}

describe('the dependency audit', () => {
  it('fails on a production package with a high advisory, and names it', () => {
    const { status, output } = audit({ 'node_modules/fastify': { version: '4.8.0' } });
    expect(status).toBe(1);
    expect(output).toContain('GHSA-455w-c45v-86rg');
  });

  it('passes the same version when only development needs it, or when it is patched', () => {
    expect(audit({ 'node_modules/fastify': { version: '4.8.0', dev: true } }).status).toBe(0);
    expect(audit({ 'node_modules/fastify': { version: '5.12.8' } }).status).toBe(0);
  });

  it('passes a finding the list accepts with a reason', () => {
    // One advisory only (4.8.0 matches several in the real list).
    const list = JSON.parse(fs.readFileSync('scripts/advisories.json', 'utf8'));
    const one = list.advisories.filter((a: { id: string }) => a.id === 'GHSA-455w-c45v-86rg');
    const { dir } = audit({});
    const file = (name: string, accepted: object[]) => {
      const at = path.join(dir, name);
      fs.writeFileSync(at, JSON.stringify({ ...list, advisories: one, accepted }));
      return at;
    };
    const lock = { 'node_modules/fastify': { version: '4.8.0' } };
    expect(audit(lock, file('none.json', [])).status).toBe(1);
    const accepted = file('accepted.json', [{ id: 'GHSA-455w-c45v-86rg', reason: 'test: not reachable' }]);
    expect(audit(lock, accepted).status).toBe(0);
  });
});
