/**
 * The label reader's evaluation (issue 28, decision 040): the dialog's reading and matching
 * modules, run in Chromium on this machine (a Vite server serves a small page that imports them,
 * with tesseract.js's files from our own packages), on the labels of scripts/labels/generate.ts.
 * Prints tracking-number exact accuracy, recipient accuracy, the first label's time (the worker's
 * start included) and the median and 95th percentile of the rest.
 *
 *   npm run eval:labels                 generates the labels when missing, then evaluates
 *   npm run eval:labels -- --verbose    also prints every miss with what was read
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { createServer } from 'vite';
import { ocrAssets } from '../vite/ocrAssets';
import type { LabelTruth } from './generate';
import type { LabelResult } from './page/main';

const OUT = path.resolve('scripts/labels/out');
const THRESHOLD = 80; // the organization setting's default (labelMatchThreshold)
const verbose = process.argv.includes('--verbose');

if (!fs.existsSync(path.join(OUT, 'truth.json'))) {
  spawnSync('npx', ['tsx', 'scripts/labels/generate.ts', '50', OUT], { stdio: 'inherit' });
}
// ONLY=06,08 evaluates those labels alone (while looking into them; the figures need all of them).
const only = process.env.ONLY?.split(',');
const truths = (JSON.parse(fs.readFileSync(path.join(OUT, 'truth.json'), 'utf8')) as LabelTruth[]).filter(
  (t) => !only || only.some((o) => t.file.startsWith(`label-${o}`)),
);

const server = await createServer({
  configFile: false,
  root: path.resolve('scripts/labels/page'),
  publicDir: OUT,
  logLevel: 'warn',
  plugins: [ocrAssets()],
  // The desk's barcode reader (imported by the label reader) uses the app's "@/" imports.
  resolve: { alias: { '@': path.resolve('src/client') } },
  server: { port: 0, host: '127.0.0.1' },
});
await server.listen();
const url = server.resolvedUrls?.local[0];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  page.on('pageerror', (err) => console.error('page error:', err.message));
  if (process.env.DUMP) page.on('console', (m) => console.log(m.text()));
  await page.goto(url!);
  await page.waitForFunction(() => typeof window.evalLabel === 'function');
  // TUNING='{"psm":"11","prepare":false}' compares the reader's settings without editing it.
  if (process.env.TUNING) await page.evaluate((t) => Object.assign(window.tuning, JSON.parse(t)), process.env.TUNING);
  if (process.env.DUMP) {
    const png = await page.evaluate((f) => window.prepared(f), process.env.DUMP);
    fs.writeFileSync('.tmp/prepared.png', Buffer.from(png.split(',')[1]!, 'base64'));
    console.log('wrote .tmp/prepared.png');
    process.exit(0);
  }
  const results: Array<{ truth: LabelTruth; result: LabelResult }> = [];
  for (const truth of truths) {
    const result = await page.evaluate(([file, t]) => window.evalLabel(file, t), [truth.file, THRESHOLD] as const);
    results.push({ truth, result });
    const ok = result.trackingNumber === truth.trackingNumber ? 'T' : '-';
    const who = result.candidates[0]?.id === truth.recipientId ? 'R' : '-';
    process.stdout.write(`${ok}${who} `);
  }
  process.stdout.write('\n');

  const n = results.length;
  const pct = (k: number) => `${k}/${n} (${((100 * k) / n).toFixed(1)}%)`;
  const trackingRight = results.filter((r) => r.result.trackingNumber === r.truth.trackingNumber).length;
  const carrierRight = results.filter((r) => r.result.carrier === r.truth.carrier).length;
  const topRight = results.filter((r) => r.result.candidates[0]?.id === r.truth.recipientId).length;
  const filledRight = results.filter((r) => r.result.filled === r.truth.recipientId).length;
  const filledWrong = results.filter((r) => r.result.filled && r.result.filled !== r.truth.recipientId).length;
  const offered = results.filter((r) => r.result.candidates.some((c) => c.id === r.truth.recipientId)).length;
  const fromBarcode = results.filter((r) => r.result.trackingSource === 'barcode');
  const barcodeWrong = fromBarcode.filter((r) => r.result.trackingNumber !== r.truth.trackingNumber).length;
  const damaged = results.filter((r) => r.truth.barcodeDamaged);
  const damagedRight = damaged.filter((r) => r.result.trackingNumber === r.truth.trackingNumber).length;
  const attempts = fromBarcode.map((r) => r.result.barcodeAttempt ?? 0);
  const times = results.map((r) => r.result.ms);
  const rest = [...times.slice(1)].sort((a, b) => a - b);
  const q = (p: number) => rest[Math.min(rest.length - 1, Math.floor(p * rest.length))] ?? 0;
  console.log(`labels                          ${n} (${[...new Set(truths.map((t) => t.carrier))].join(', ')})`);
  console.log(`tracking number exact           ${pct(trackingRight)}`);
  console.log(`carrier right                   ${pct(carrierRight)}`);
  console.log(
    `number from the barcode         ${pct(fromBarcode.length)}, ${barcodeWrong} wrong; ` +
      `${attempts.filter((a) => a > 0).length} only after turning the photo`,
  );
  console.log(`damaged barcodes, number right  ${damagedRight}/${damaged.length} (from the printed text)`);
  console.log(`recipient right (best match)    ${pct(topRight)}`);
  console.log(`recipient filled in, right      ${pct(filledRight)} at threshold ${THRESHOLD}`);
  console.log(`recipient filled in, wrong      ${pct(filledWrong)}`);
  console.log(`right recipient among choices   ${pct(offered)}`);
  console.log(`first label (worker start)      ${Math.round(times[0] ?? 0)} ms`);
  console.log(
    `rest: median / p95 / max        ${Math.round(q(0.5))} / ${Math.round(q(0.95))} / ${Math.round(rest.at(-1) ?? 0)} ms`,
  );
  const med = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const rest1 = results.slice(1);
  const step = (k: 'barcode' | 'prepare' | 'ocr' | 'secondOcr') => med(rest1.map((r) => r.result.steps[k]));
  console.log(
    `median steps (rest)             barcode ${step('barcode')} / prepare ${step('prepare')} / OCR ${step('ocr')} ms; ` +
      `second OCR on ${rest1.filter((r) => r.result.steps.secondOcr > 0).length} labels`,
  );
  if (verbose) {
    for (const { truth, result } of results) {
      if (result.trackingNumber === truth.trackingNumber && result.candidates[0]?.id === truth.recipientId) continue;
      console.log(
        `\n${truth.file}: want ${truth.trackingNumber} / ${truth.printedName} (${truth.recipientName})` +
          `${truth.barcodeDamaged ? ' [barcode damaged]' : ''}`,
      );
      console.log(
        `  got ${result.trackingNumber} (${result.trackingSource}) / ${JSON.stringify(result.candidates.slice(0, 2))} ${result.decision}`,
      );
      console.log(`  addressee ${JSON.stringify(result.addressee)}`);
      console.log(`  text ${JSON.stringify(result.text)}`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
