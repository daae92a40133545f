#!/usr/bin/env node
// Dependency audit without `npm audit`: the registry these machines use refuses the audit endpoint
// and there is no other network. Reads the production packages from package-lock.json and compares
// them with the vendored advisory list in scripts/advisories.json (decision 017).
//
//   node scripts/audit-deps.mjs [--lockfile path] [--advisories path] [--today YYYY-MM-DD]
//
// Exit codes: 0 no unaccepted high/critical finding, 1 at least one, 2 bad input (unreadable lock
// file, malformed advisory list or range). Moderate and low findings are printed as warnings.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(SCRIPT_DIR, '..');
const SEVERITIES = ['low', 'moderate', 'high', 'critical'];
const FAILING = new Set(['high', 'critical']);
const MAX_AGE_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

class InputError extends Error {}

// ---------------------------------------------------------------------------------------------
// Versions and ranges. A small subset of npm's semver, enough for advisory ranges:
//   range      := set ( '||' set )*
//   set        := comparator ( (' ' | ',') comparator )*      (all must hold)
//   comparator := ( '<' | '<=' | '>' | '>=' | '=' )? version   |  '*'
// No ^, ~ or x-ranges: an advisory range must say exactly what it means. Unlike npm's semver,
// prerelease versions are compared by plain precedence (1.0.0-beta < 1.0.0) and never excluded,
// which is the cautious reading for an audit.

const VERSION_RE = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseVersion(text) {
  const match = VERSION_RE.exec(String(text).trim());
  if (!match) return null;
  const prerelease = match[4] ? match[4].split('.').map((id) => (/^\d+$/.test(id) ? Number(id) : id)) : [];
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), prerelease };
}

export function compareVersions(a, b) {
  for (const key of ['major', 'minor', 'patch']) {
    if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1;
  }
  const pa = a.prerelease;
  const pb = b.prerelease;
  if (pa.length === 0 || pb.length === 0) return Math.sign(pb.length - pa.length); // a release outranks its prereleases
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    if (pa[i] === undefined) return -1;
    if (pb[i] === undefined) return 1;
    if (pa[i] === pb[i]) continue;
    const aNum = typeof pa[i] === 'number';
    const bNum = typeof pb[i] === 'number';
    if (aNum !== bNum) return aNum ? -1 : 1; // numeric identifiers sort before alphanumeric ones
    return pa[i] < pb[i] ? -1 : 1;
  }
  return 0;
}

const COMPARATOR_RE = /^(<=|>=|<|>|=)?\s*(\S+)$/;
const TESTS = {
  '<': (c) => c < 0,
  '<=': (c) => c <= 0,
  '>': (c) => c > 0,
  '>=': (c) => c >= 0,
  '=': (c) => c === 0,
};

export function parseRange(text) {
  if (typeof text !== 'string' || text.trim() === '') throw new InputError(`empty range`);
  return text.split('||').map((setText) => {
    // Join an operator to its version ("< 1.2.3" -> "<1.2.3"), then split on spaces and commas.
    const tokens = setText
      .trim()
      .replace(/(<=|>=|<|>|=)\s+/g, '$1')
      .split(/[\s,]+/)
      .filter(Boolean);
    if (tokens.length === 0) throw new InputError(`empty alternative in range "${text}"`);
    return tokens.map((token) => {
      if (token === '*') return { op: '*' };
      const match = COMPARATOR_RE.exec(token);
      const version = match && parseVersion(match[2]);
      if (!version) throw new InputError(`cannot read "${token}" in range "${text}" (use <, <=, >, >=, = and x.y.z)`);
      return { op: match[1] ?? '=', version };
    });
  });
}

export function satisfies(version, range) {
  const v = typeof version === 'string' ? parseVersion(version) : version;
  if (!v) return false;
  const sets = typeof range === 'string' ? parseRange(range) : range;
  return sets.some((set) => set.every((c) => c.op === '*' || TESTS[c.op](compareVersions(v, c.version))));
}

// `patched` may list one fixed version per release line ("3.1.7, 4.1.4"): the useful one is the
// lowest fixed version above the installed one.
export function fixFor(installed, patched) {
  if (typeof patched !== 'string' || patched.trim() === '') return 'no fix listed';
  const current = parseVersion(installed);
  const candidates = patched
    .split(/[\s,|]+/)
    .map((text) => ({ text, version: parseVersion(text) }))
    .filter((c) => c.version && current && compareVersions(c.version, current) > 0)
    .sort((a, b) => compareVersions(a.version, b.version));
  return candidates[0]?.text ?? patched;
}

// ---------------------------------------------------------------------------------------------
// The production tree from package-lock.json (lockfileVersion 2 or 3, `packages` map).
//
// npm marks each entry by how it is reached from the root:
//   dev: true          only through devDependencies -> not installed by `npm ci --omit=dev`: skipped
//   optional: true     only through optionalDependencies (platform binaries such as @esbuild/*,
//                      @img/sharp-*): production code that ships where the platform matches: kept
//   devOptional: true  through devDependencies, or through optional (peer) dependencies of
//                      production packages; `--omit=dev` alone still installs it: kept, and marked
// Link entries (workspaces) carry no version of their own; their target is listed separately.

export function productionPackages(lock) {
  if (!lock || typeof lock !== 'object' || !lock.packages || typeof lock.packages !== 'object') {
    throw new InputError('package-lock.json has no "packages" map (lockfileVersion 2 or 3 is needed)');
  }
  const result = [];
  for (const [location, entry] of Object.entries(lock.packages)) {
    // Skip the root, workspace folders (our own code, not dependencies), links and dev-only entries.
    const marker = location.lastIndexOf('node_modules/');
    if (marker === -1 || entry.link || entry.dev === true || !entry.version) continue;
    const name = entry.name ?? location.slice(marker + 'node_modules/'.length);
    result.push({
      name,
      version: entry.version,
      location,
      optional: entry.optional === true,
      devOptional: entry.devOptional === true,
    });
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// The advisory list.

export function loadAdvisoryList(data) {
  if (!data || typeof data !== 'object' || !Array.isArray(data.advisories)) {
    throw new InputError('advisory list has no "advisories" array');
  }
  const advisories = data.advisories.map((advisory, index) => {
    const where = `advisories[${index}] (${advisory?.id ?? 'no id'})`;
    for (const field of ['id', 'package', 'vulnerable', 'severity', 'title']) {
      if (typeof advisory?.[field] !== 'string' || advisory[field].trim() === '') {
        throw new InputError(`${where}: "${field}" is missing`);
      }
    }
    if (!SEVERITIES.includes(advisory.severity)) {
      throw new InputError(`${where}: severity "${advisory.severity}" is not one of ${SEVERITIES.join(', ')}`);
    }
    try {
      return { ...advisory, range: parseRange(advisory.vulnerable) };
    } catch (error) {
      throw new InputError(`${where}: ${error.message}`);
    }
  });
  const accepted = (data.accepted ?? []).map((entry, index) => {
    if (typeof entry?.id !== 'string' || typeof entry?.reason !== 'string' || entry.reason.trim() === '') {
      throw new InputError(`accepted[${index}]: needs "id" and a "reason"`);
    }
    if (entry.until !== undefined && Number.isNaN(Date.parse(entry.until))) {
      throw new InputError(`accepted[${index}] (${entry.id}): "until" is not a date`);
    }
    return entry;
  });
  return { updated: data.updated, source: data.source, advisories, accepted };
}

export function audit(packages, list, today = new Date()) {
  const byName = new Map();
  for (const advisory of list.advisories) {
    if (!byName.has(advisory.package)) byName.set(advisory.package, []);
    byName.get(advisory.package).push(advisory);
  }
  const findings = [];
  const seen = new Map();
  for (const pkg of packages) {
    for (const advisory of byName.get(pkg.name) ?? []) {
      if (!satisfies(pkg.version, advisory.range)) continue;
      const key = `${advisory.id} ${pkg.name}@${pkg.version}`;
      if (seen.has(key)) {
        seen.get(key).locations.push(pkg.location); // the same name@version installed at several paths
        continue;
      }
      const acceptance = list.accepted.find((a) => a.id === advisory.id && (!a.package || a.package === pkg.name));
      const expired = acceptance?.until !== undefined && Date.parse(acceptance.until) < today.getTime();
      const finding = {
        pkg,
        advisory,
        locations: [pkg.location],
        acceptance: expired ? undefined : acceptance,
        expiredAcceptance: expired,
      };
      seen.set(key, finding);
      findings.push(finding);
    }
  }
  const rank = (f) => SEVERITIES.indexOf(f.advisory.severity);
  findings.sort((a, b) => rank(b) - rank(a) || a.pkg.name.localeCompare(b.pkg.name));
  const unusedAcceptances = list.accepted.filter((a) => !findings.some((f) => f.advisory.id === a.id));
  return { findings, unusedAcceptances };
}

// ---------------------------------------------------------------------------------------------
// Output.

function table(rows, headers) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function shorten(text, max) {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function parseArgs(argv) {
  const options = {
    lockfile: path.join(ROOT, 'package-lock.json'),
    advisories: path.join(SCRIPT_DIR, 'advisories.json'),
    today: new Date(),
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--lockfile' && value) options.lockfile = path.resolve(value);
    else if (flag === '--advisories' && value) options.advisories = path.resolve(value);
    else if (flag === '--today' && value && !Number.isNaN(Date.parse(value))) options.today = new Date(value);
    else throw new InputError(`unknown or incomplete argument "${flag}"`);
    i++;
  }
  return options;
}

function readJson(file, what) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read ${what} ${file}: ${error.message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputError(`${what} ${file} is not JSON: ${error.message}`);
  }
}

function main(argv) {
  const options = parseArgs(argv);
  const lock = readJson(options.lockfile, 'lock file');
  const list = loadAdvisoryList(readJson(options.advisories, 'advisory list'));
  const packages = productionPackages(lock);
  const uniquePackages = new Set(packages.map((p) => `${p.name}@${p.version}`));
  const { findings, unusedAcceptances } = audit(packages, list, options.today);
  const warnings = [];

  // Staleness first, so it is visible whatever the result.
  const updated = Date.parse(list.updated);
  if (Number.isNaN(updated)) {
    warnings.push(`advisory list has no valid "updated" date; treat its result as stale`);
    console.log(`Advisory list: ${path.relative(ROOT, options.advisories)}, updated: unknown`);
  } else {
    const ageDays = Math.floor((options.today.getTime() - updated) / DAY_MS);
    console.log(
      `Advisory list: ${path.relative(ROOT, options.advisories)}, updated ${list.updated} (${ageDays} days ago)`,
    );
    if (ageDays > MAX_AGE_DAYS) {
      warnings.push(
        `advisory list is ${ageDays} days old (over ${MAX_AGE_DAYS}); refresh it (docs/decisions/017-dependency-audit.md)`,
      );
    }
  }
  console.log('');

  if (findings.length === 0) {
    console.log('No production package matches a vendored advisory.');
  } else {
    const rows = findings.map((f) => [
      f.pkg.name,
      f.pkg.version,
      f.advisory.id,
      f.acceptance ? `${f.advisory.severity} (accepted)` : f.advisory.severity,
      f.advisory.vulnerable,
      fixFor(f.pkg.version, f.advisory.patched),
      shorten(f.advisory.title, 70),
    ]);
    console.log(table(rows, ['package', 'installed', 'advisory', 'severity', 'vulnerable', 'fixed in', 'title']));
    for (const f of findings) {
      console.log(`  ${f.pkg.name}@${f.pkg.version} (${f.advisory.id}) at ${f.locations.join(', ')}`);
      if (f.acceptance) console.log(`  accepted ${f.advisory.id} (${f.pkg.name}): ${f.acceptance.reason}`);
      if (f.expiredAcceptance) warnings.push(`acceptance of ${f.advisory.id} expired; it counts again`);
      if (f.pkg.devOptional) {
        console.log(
          `  note: ${f.pkg.name}@${f.pkg.version} is devOptional (installed unless optional deps are omitted)`,
        );
      }
    }
  }
  for (const a of unusedAcceptances) warnings.push(`accepted ${a.id} no longer matches anything; remove it`);

  const failing = findings.filter((f) => FAILING.has(f.advisory.severity) && !f.acceptance);
  const lesser = findings.filter((f) => !FAILING.has(f.advisory.severity) && !f.acceptance);
  for (const f of lesser) {
    warnings.push(
      `${f.advisory.severity}: ${f.pkg.name}@${f.pkg.version} ${f.advisory.id} (fix: ${fixFor(f.pkg.version, f.advisory.patched)})`,
    );
  }

  console.log('');
  for (const w of warnings) console.log(`warning: ${w}`);
  const covered = new Set(list.advisories.map((a) => a.package));
  const coveredInTree = [...covered].filter((name) => packages.some((p) => p.name === name)).length;
  console.log(
    `Checked ${uniquePackages.size} production packages (${packages.length} lock entries) against ` +
      `${list.advisories.length} advisories for ${covered.size} packages (${coveredInTree} of them in the tree): ` +
      `${findings.length} findings, ${failing.length} high/critical not accepted.`,
  );
  return failing.length > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    console.error(`audit-deps: ${error.message}`);
    process.exitCode = 2;
  }
}
