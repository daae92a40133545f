#!/usr/bin/env node
/**
 * How much JavaScript each first page load downloads, gzip-compressed, beside its budget
 * (issue 14): the signed-out pages (landing, pricing, the sign-in forms) under 100 KB, the
 * signed-in app's first load (the shell and the dashboard) under 250 KB. The other screens opened
 * first are shown beside them.
 * Reads the Vite build's manifest (dist/client/.vite/manifest.json, `build.manifest`): a page
 * loads the entry and the chunks it imports statically, plus the lazily loaded chunk of its
 * screen (the route table, src/client/app/routes.ts) and that chunk's static imports. Chunks
 * loaded later (a dialog, the toast viewport, the barcode reader) are not counted.
 *
 *   npm run bundle:sizes                    builds the client, then measures
 *   node scripts/bundle-sizes.mjs [dir]     measures an existing build (default dist/client)
 *
 * Exits 1 when a page is over its budget, 2 when the build or a page's chunk is missing.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const KB = 1024;
const SIGNED_OUT_BUDGET = 100 * KB;
const SIGNED_IN_BUDGET = 250 * KB;

/** The budgeted first loads, and the lazily loaded chunks (manifest keys, relative to src/client) they add. */
const BUDGETED = [
  {
    page: '/ and /homepage (landing, signed out)',
    budget: SIGNED_OUT_BUDGET,
    chunks: ['app/screens/LandingScreen.tsx'],
  },
  { page: '/pricing (signed out)', budget: SIGNED_OUT_BUDGET, chunks: ['app/screens/PricingScreen.tsx'] },
  {
    page: '/ signed in (shell + dashboard)',
    budget: SIGNED_IN_BUDGET,
    chunks: ['app/SignedInApp.tsx', 'app/screens/DashboardScreen.tsx'],
  },
];

/**
 * The signed-out forms, budgeted like the landing page. Their zod schemas load when a form is
 * first focused (lib/schemaForm.ts, decision 024), so they are not counted.
 */
const SIGNED_OUT_FORMS = ['Login', 'Register', 'Auth', 'ForgotPassword', 'ResetPassword', 'VerifyEmail'].map(
  (name) => ({
    page: `/${name.replace(/[A-Z]/g, (c, i) => (i ? '-' : '') + c.toLowerCase())}`,
    budget: SIGNED_OUT_BUDGET,
    chunks: [`app/screens/${name}Screen.tsx`],
  }),
);

/** Shown for information: the signed-in app opened first at another screen (a bookmark). */
const SIGNED_IN_SCREENS = [
  'MailIntake',
  'PendingPickups',
  'Recipients',
  'History',
  'Reports',
  'Integrations',
  'Settings',
  'Billing',
  'Checkout',
  'SuperAdmin',
].map((name) => ({ page: `${name} (signed in)`, chunks: ['app/SignedInApp.tsx', `app/screens/${name}Screen.tsx`] }));

/** Shown for information: the recipient's pages (decision 032), signed out, reached by a link. */
const PORTAL_PAGES = [
  ['/my (ask for a link)', 'PortalRequest'],
  ['/my/open (a link opened)', 'PortalOpen'],
  ['/my/packages (the page)', 'PortalPage'],
].map(([page, name]) => ({ page, chunks: [`app/screens/${name}Screen.tsx`] }));

const dir = path.resolve(process.argv[2] ?? 'dist/client');
const manifestPath = path.join(dir, '.vite', 'manifest.json');
if (!fs.existsSync(manifestPath)) {
  console.error(
    `No build manifest at ${manifestPath}: run \`npm run build:client\` first (or \`npm run bundle:sizes\`).`,
  );
  process.exit(2);
}
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) {
  console.error('The manifest names no entry chunk.');
  process.exit(2);
}

const gzipCache = new Map();
function gzipBytes(file) {
  if (!gzipCache.has(file)) gzipCache.set(file, zlib.gzipSync(fs.readFileSync(path.join(dir, file))).length);
  return gzipCache.get(file);
}

/** The JavaScript files a chunk loads before it runs: itself and its static imports, transitively. */
function staticClosure(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`the build has no chunk for ${key}`);
  if (chunk.file.endsWith('.js')) files.add(chunk.file);
  for (const imported of chunk.imports ?? []) {
    if (!files.has(manifest[imported]?.file)) staticClosure(imported, files);
  }
  return files;
}

const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
let over = 0;
let missing = 0;

function measure({ page, budget, chunks }) {
  let files;
  try {
    files = [entryKey, ...chunks].reduce((all, key) => staticClosure(key, all), new Set());
  } catch (err) {
    console.error(`${page}: ${err.message}`);
    missing += 1;
    return null;
  }
  const bytes = [...files].reduce((sum, file) => sum + gzipBytes(file), 0);
  const verdict = budget === undefined ? '' : bytes <= budget ? 'ok' : 'OVER';
  if (verdict === 'OVER') over += 1;
  return [page, kb(bytes), budget === undefined ? '' : kb(budget), verdict, String(files.size)];
}

const sections = [
  ['Budgeted', BUDGETED],
  ['Budgeted: the sign-in and registration forms', SIGNED_OUT_FORMS],
  ['For information: the signed-in app opened first at another screen', SIGNED_IN_SCREENS],
  ["For information: the recipient's page", PORTAL_PAGES],
].map(([title, pages]) => [title, pages.map(measure).filter(Boolean)]);

const entryBytes = [...staticClosure(entryKey)].reduce((sum, file) => sum + gzipBytes(file), 0);
const header = ['first load of', 'JS (gzip)', 'budget', '', 'files'];
const all = sections.flatMap(([, rows]) => rows);
const widths = header.map((h, i) => Math.max(h.length, ...all.map((r) => r[i].length)));
const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(`JavaScript per first page load, gzip (${path.relative(process.cwd(), dir) || '.'})`);
console.log(`the entry chunk and its imports, on every page: ${kb(entryBytes)}\n`);
console.log(line(header));
for (const [title, rows] of sections) {
  console.log(`${title}:`);
  for (const row of rows) console.log(line(row));
}
if (missing) process.exit(2);
if (over) {
  console.error(`\n${over} page(s) over budget.`);
  process.exit(1);
}
console.log('\nThe budgeted pages are within their budgets.');
