import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { version } from 'tesseract.js/package.json';
import { loadBarcodeDetector } from '../intake/barcode/decodeBarcode';
import { barcodeSlant } from './barcodeSlant';
import { extractLabel, type LabelText } from './extractLabel';
import { trackingOfBarcodes, type BarcodeTracking } from './labelBarcode';

/**
 * The label reader (decision 040): tesseract.js in a Web Worker, with its worker script, core
 * and English data served by our own build (scripts/vite/ocrAssets.ts copies them under this
 * folder), never a CDN and never a cloud service: the photo and its text stay in the browser.
 * This module is imported dynamically on first use, so tesseract.js is not part of any page's
 * first load.
 */
const OCR_BASE = `/assets/ocr-${version}`;

/** Long side the label is scaled to before reading (measured: 1,280 read more and faster than 1,600). */
export const READ_SIDE = 1280;
/** Pixels beyond this are refused before decoding a second time (a 100-megapixel image would stall the tab). */
const MAX_PIXELS = 60_000_000;

export class LabelImageError extends Error {}

export type ReadStage = 'loading' | 'reading';
export type OnProgress = (stage: ReadStage, progress: number) => void;

/** The reader's settings; the evaluation (scripts/labels) varies them to compare. */
export const tuning = {
  psm: PSM.SINGLE_BLOCK,
  readSide: READ_SIDE,
  prepare: true,
  rotateAuto: true,
  secondPass: true,
  /**
   * Read again (sparse) when the first reading found no address heading, as well as when it found
   * no number. Off: it read 17 of 50 labels twice (Amazon's have no heading) to fill in one more.
   */
  secondPassForHeading: false,
  /** Decode only the label's region, not the whole photo. */
  barcodeInRegion: true,
  crop: true,
  /** Decode the label's barcode (ZXing) before the OCR. */
  barcode: true,
  /** Paint out a decoded barcode before the OCR, and turn the label level by its angle. */
  maskBarcode: true,
  /** Logs what the reader measured (the evaluation's DUMP). */
  debug: false,
  levelByBarcode: true,
  /**
   * The decoder's retries when the photo as it is decodes nothing: turned by so many degrees
   * (1D codes are read along rows) and scaled (blur and grain shrink with the photo).
   */
  barcodeRetries: [
    { turn: 0, scale: 0.5 },
    { turn: -7, scale: 0.75 },
    { turn: 7, scale: 0.75 },
  ] as Array<{ turn: number; scale: number }>,
};

let worker: Promise<Worker> | null = null;
let progressListener: OnProgress | null = null;

/** The one worker, started on first use and kept for the next labels (its start is most of the first label's time). */
function getWorker(): Promise<Worker> {
  worker ??= createWorker('eng', OEM.LSTM_ONLY, {
    workerPath: `${OCR_BASE}/worker.min.js`,
    corePath: OCR_BASE,
    langPath: OCR_BASE,
    // A worker from our own origin (no blob: URL), so the CSP's worker-src 'self' suffices.
    workerBlobURL: false,
    logger: (m) => {
      if (m.status === 'recognizing text') progressListener?.('reading', m.progress);
      else progressListener?.('loading', m.progress);
    },
  }).then(async (w) => {
    // Labels are blocks of short lines scattered over the page: sparse text finds them all.
    await w.setParameters({ tessedit_pageseg_mode: tuning.psm });
    return w;
  });
  worker.catch(() => {
    worker = null;
  });
  return worker;
}

/** Starts the worker ahead of the first label (the dialog calls it when a photo is being chosen). */
export function warmUp(): void {
  void getWorker().catch(() => undefined);
}

async function decode(image: Blob): Promise<ImageBitmap> {
  try {
    return await createImageBitmap(image);
  } catch {
    throw new LabelImageError('This image could not be opened. Take the photo again or choose another file.');
  }
}

/** Long side of the thumbnail the label is looked for in. */
const FIND_SIDE = 320;

/**
 * Where the label is in the photo: the bright paper on a darker desk, counter or van floor. Its box
 * (with a margin) is read alone, at a larger scale, instead of the whole scene. The whole photo
 * when no such region stands out (a close-up of the label, a white table).
 */
function labelBox(bitmap: ImageBitmap): { x: number; y: number; width: number; height: number } {
  const whole = { x: 0, y: 0, width: bitmap.width, height: bitmap.height };
  const k = Math.min(1, FIND_SIDE / Math.max(bitmap.width, bitmap.height));
  const w = Math.max(1, Math.round(bitmap.width * k));
  const h = Math.max(1, Math.round(bitmap.height * k));
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return whole;
  context.drawImage(bitmap, 0, 0, w, h);
  const data = context.getImageData(0, 0, w, h).data;
  const grey = new Uint8Array(w * h);
  for (let i = 0; i < grey.length; i++) grey[i] = (data[i * 4]! + data[i * 4 + 1]! + data[i * 4 + 2]!) / 3;
  const sorted = Uint8Array.from(grey).sort();
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const bright = sorted[Math.floor(sorted.length * 0.99)]!;
  if (bright - median < 40) return whole; // no paper brighter than its surroundings
  const threshold = (median + bright) / 2;
  const rows = new Uint32Array(h);
  const cols = new Uint32Array(w);
  let count = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (grey[y * w + x]! > threshold) {
        rows[y]!++;
        cols[x]!++;
        count++;
      }
    }
  }
  if (count > grey.length * 0.6) return whole;
  const extent = (counts: Uint32Array) => {
    const floor = Math.max(...counts) * 0.15;
    const first = counts.findIndex((c) => c > floor);
    const last = counts.length - 1 - [...counts].reverse().findIndex((c) => c > floor);
    return [first, last] as const;
  };
  const [x0, x1] = extent(cols);
  const [y0, y1] = extent(rows);
  const margin = 0.03 * Math.max(w, h);
  const left = Math.max(0, (x0 - margin) / k);
  const top = Math.max(0, (y0 - margin) / k);
  const right = Math.min(bitmap.width, (x1 + 1 + margin) / k);
  const bottom = Math.min(bitmap.height, (y1 + 1 + margin) / k);
  if ((right - left) * (bottom - top) < 0.08 * bitmap.width * bitmap.height) return whole;
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** The photo, decoded once for both readers; refused when it cannot be opened or is too large. */
export async function open(image: Blob): Promise<ImageBitmap> {
  const bitmap = await decode(image);
  if (bitmap.width * bitmap.height > MAX_PIXELS) {
    bitmap.close();
    throw new LabelImageError('This image is too large to read. Take the photo again at a normal size.');
  }
  return bitmap;
}

/** Grey values of a canvas's pixels, row by row. */
function greyOf(context: CanvasRenderingContext2D, width: number, height: number): Uint8Array {
  const data = context.getImageData(0, 0, width, height).data;
  const grey = new Uint8Array(width * height);
  for (let i = 0; i < grey.length; i++) grey[i] = (data[i * 4]! + data[i * 4 + 1]! + data[i * 4 + 2]!) / 3;
  return grey;
}

/**
 * Paints out a barcode on a label already turned level: from the row through the code's middle
 * (x0..x1 wide), up and down while the row is bars all along (a change of shade in nearly every
 * stretch of a twentieth of its length), then a margin. The bars are the OCR's worst noise: with them, Tesseract
 * read a clean, 7-degree-askew label as "Lig"; the printed number and the address stay.
 */
function maskBars(
  context: CanvasRenderingContext2D,
  width: number,
  height: number,
  x0: number,
  x1: number,
  yc: number,
) {
  const grey = greyOf(context, width, height);
  const left = Math.max(0, Math.round(x0));
  const right = Math.min(width - 1, Math.round(x1));
  // A window wide enough to hold a bar and a space of any code (Code 128's widest are four modules;
  // a short DHL number has few, wide modules).
  const WINDOW = Math.max(12, Math.round((right - left) / 20));
  // "A change of shade" relative to the bars' own contrast on the middle row: a low-contrast
  // label's bars are grey on grey.
  let lo = 255;
  let hi = 0;
  const mid = Math.max(0, Math.min(height - 1, Math.round(yc)));
  for (let x = left; x <= right; x++) {
    const v = grey[mid * width + x]!;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const shade = Math.max(16, 0.45 * (hi - lo));
  const isBars = (y: number) => {
    if (y < 0 || y >= height) return false;
    let windows = 0;
    let barred = 0;
    for (let start = left; start + WINDOW <= right; start += WINDOW) {
      windows++;
      let lo = 255;
      let hi = 0;
      for (let x = start; x < start + WINDOW; x++) {
        const v = grey[y * width + x]!;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      if (hi - lo > shade) barred++;
    }
    return windows > 0 && barred >= 0.85 * windows;
  };
  const limit = Math.round((right - left) * 0.4);
  let top = Math.round(yc);
  let bottom = Math.round(yc);
  for (let miss = 0; top > yc - limit && miss < 3; top--) miss = isBars(top - 1) ? 0 : miss + 1;
  for (let miss = 0; bottom < yc + limit && miss < 3; bottom++) miss = isBars(bottom + 1) ? 0 : miss + 1;
  // Blur leaves the bars' ends grey: a margin of a few pixels more than the rows found.
  const margin = Math.max(4, Math.round((right - left) * 0.02));
  context.fillStyle = '#fff';
  context.fillRect(left - margin, top - margin, right - left + 2 * margin, bottom - top + 2 * margin);
}

/** The label's region of the photo (tuning.crop), else the whole photo. */
export function regionOf(bitmap: ImageBitmap): Box {
  return tuning.crop ? labelBox(bitmap) : { x: 0, y: 0, width: bitmap.width, height: bitmap.height };
}

/**
 * The photo as the reader sees it best: the label's region, scaled to READ_SIDE on its long side,
 * grey, and its contrast stretched between the darkest and lightest 1% (labels photographed in a
 * dim mailroom or printed by a tired thermal printer come out grey on grey). When the barcode was decoded, its bars are painted out and the
 * label is turned level by the barcode's own angle (so Tesseract's slower deskew is not needed).
 */
export async function prepare(
  image: Blob | ImageBitmap,
  barcode?: LabelBarcode | null,
  labelRegion?: Box,
): Promise<HTMLCanvasElement> {
  const bitmap = image instanceof Blob ? await open(image) : image;
  const box = labelRegion ?? regionOf(bitmap);
  // Up to twice the size: a label photographed from afar has print too small for the reader.
  const scale = Math.min(2, tuning.readSide / Math.max(box.width, box.height));
  const w = box.width * scale;
  const h = box.height * scale;
  let angle = 0;
  if (barcode && tuning.levelByBarcode) {
    // The slant measured on the photo itself, around the decoded rows only.
    const xs = barcode.corners.map((c) => c.x);
    const ys = barcode.corners.map((c) => c.y);
    const pad = Math.max(...xs) - Math.min(...xs);
    const sx = Math.max(0, Math.floor(Math.min(...xs)));
    const sy = Math.max(0, Math.floor(Math.min(...ys) - pad * 0.2));
    const sw = Math.min(bitmap.width - sx, Math.ceil(pad) + 1);
    const sh = Math.min(bitmap.height - sy, Math.ceil(Math.max(...ys) - Math.min(...ys) + pad * 0.4));
    const probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    if (probe && sw > 0 && sh > 0) {
      probe.canvas.width = sw;
      probe.canvas.height = sh;
      probe.drawImage(bitmap, sx, sy, sw, sh, 0, 0, sw, sh);
      const local = barcode.corners.map((c) => ({ x: c.x - sx, y: c.y - sy }));
      angle = barcodeSlant(greyOf(probe, sw, sh), sw, sh, local);
      if (tuning.debug) console.log(`barcode slant ${((angle * 180) / Math.PI).toFixed(1)} degrees`);
    }
  }
  const cos = Math.abs(Math.cos(angle));
  const sin = Math.abs(Math.sin(angle));
  const width = Math.max(1, Math.round(w * cos + h * sin));
  const height = Math.max(1, Math.round(w * sin + h * cos));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new LabelImageError('This browser cannot prepare images for reading.');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  // In the photo's own coordinates: the label's box centred, turned level, scaled.
  context.translate(width / 2, height / 2);
  context.rotate(-angle);
  context.scale(scale, scale);
  context.translate(-(box.x + box.width / 2), -(box.y + box.height / 2));
  context.drawImage(bitmap, box.x, box.y, box.width, box.height, box.x, box.y, box.width, box.height);
  const toCanvas = context.getTransform();
  context.setTransform(1, 0, 0, 1, 0, 0);
  if (barcode && tuning.maskBarcode) {
    // The decoded rows' ends and middle, where they are on the level canvas.
    const xs = barcode.corners.map((c) => c.x);
    const ys = barcode.corners.map((c) => c.y);
    const yMid = (Math.min(...ys) + Math.max(...ys)) / 2;
    const a = toCanvas.transformPoint(new DOMPoint(Math.min(...xs), yMid));
    const b = toCanvas.transformPoint(new DOMPoint(Math.max(...xs), yMid));
    maskBars(context, width, height, Math.min(a.x, b.x), Math.max(a.x, b.x), (a.y + b.y) / 2);
  }
  if (image instanceof Blob) bitmap.close();
  const pixels = context.getImageData(0, 0, width, height);
  const data = pixels.data;
  const histogram = new Uint32Array(256);
  for (let i = 0; i < data.length; i += 4) {
    const grey = Math.round(0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!);
    data[i] = grey;
    histogram[grey]!++;
  }
  const total = width * height;
  let low = 0;
  let high = 255;
  for (let sum = 0; low < 255 && (sum += histogram[low]!) < total * 0.01;) low++;
  for (let sum = 0; high > 0 && (sum += histogram[high]!) < total * 0.01;) high--;
  const range = Math.max(1, high - low);
  for (let i = 0; i < data.length; i += 4) {
    const v = Math.max(0, Math.min(255, ((data[i]! - low) * 255) / range));
    data[i] = data[i + 1] = data[i + 2] = v;
  }
  context.putImageData(pixels, 0, 0);
  return canvas;
}

type Box = { x: number; y: number; width: number; height: number };

/** A region of the photo turned by `degrees` about its centre and scaled, on a canvas as large as the result. */
function turned(bitmap: ImageBitmap, box: Box, degrees: number, scale: number): HTMLCanvasElement | null {
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.abs(Math.cos(radians));
  const sin = Math.abs(Math.sin(radians));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round((box.width * cos + box.height * sin) * scale));
  canvas.height = Math.max(1, Math.round((box.width * sin + box.height * cos) * scale));
  const context = canvas.getContext('2d');
  if (!context) return null;
  context.fillStyle = '#fff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.translate(canvas.width / 2, canvas.height / 2);
  context.rotate(radians);
  context.scale(scale, scale);
  context.drawImage(
    bitmap,
    box.x,
    box.y,
    box.width,
    box.height,
    -box.width / 2,
    -box.height / 2,
    box.width,
    box.height,
  );
  return canvas;
}

/**
 * The tracking number in the label's barcode, decoded by the desk's own ZXing reader (decision
 * 034) from the same photo. ZXing reads a 1D code along rows, so a label photographed more than a
 * few degrees askew crosses too few bars on any one row: when the photo as it is decodes nothing
 * valid, it is tried turned a little each way (a cheap retry). Null when no barcode validates, or
 * the reader cannot start (the OCR still reads the printed number).
 */
export interface LabelBarcode extends BarcodeTracking {
  /** Which attempt decoded it: 0 the photo as it is, then each of tuning.barcodeRetries. */
  attempt: number;
  /** Where ZXing read it, in the photo's pixels (the row(s) it decoded along, corner to corner). */
  corners: Array<{ x: number; y: number }>;
}

export async function readLabelBarcode(bitmap: ImageBitmap, box?: Box): Promise<LabelBarcode | null> {
  // Only the label's own region (found for the OCR): a third to a half of the photo's pixels to decode.
  const region = box ?? { x: 0, y: 0, width: bitmap.width, height: bitmap.height };
  let detector;
  try {
    detector = await loadBarcodeDetector();
  } catch {
    return null;
  }
  const attempts: Array<() => ImageBitmap | HTMLCanvasElement | null> = [
    () => (box ? turned(bitmap, region, 0, 1) : bitmap),
    ...tuning.barcodeRetries.map(
      ({ turn, scale }) =>
        () =>
          turned(bitmap, region, turn, scale),
    ),
  ];
  for (const [attempt, source] of attempts.entries()) {
    const image = source();
    if (!image) continue;
    try {
      const codes = await detector.detect(image);
      const found = trackingOfBarcodes(codes.map((b) => b.rawValue));
      const code =
        found && codes.find((c) => trackingOfBarcodes([c.rawValue])?.trackingNumber === found.trackingNumber);
      if (found && code) {
        // Back from the turned canvas to the photo: scale back, turn back about the centres.
        const retry = attempt === 0 ? { turn: 0, scale: 1 } : tuning.barcodeRetries[attempt - 1]!;
        const r = (-retry.turn * Math.PI) / 180;
        const corners = code.cornerPoints.map(({ x, y }) => {
          const dx = (x - image.width / 2) / retry.scale;
          const dy = (y - image.height / 2) / retry.scale;
          return {
            x: region.x + region.width / 2 + dx * Math.cos(r) - dy * Math.sin(r),
            y: region.y + region.height / 2 + dx * Math.sin(r) + dy * Math.cos(r),
          };
        });
        return { ...found, attempt, corners };
      }
    } catch {
      // a failed decode is no barcode: try the next way, then leave the number to the OCR
    }
  }
  return null;
}

/** A data URL's bytes, decoded here: fetch() of a data: URL is a connect-src request the CSP refuses. */
function blobOf(dataUrl: string): Blob {
  const match = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(dataUrl);
  if (!match?.[2])
    throw new LabelImageError('This image could not be opened. Take the photo again or choose another file.');
  const bytes = Uint8Array.from(atob(match[3] ?? ''), (c) => c.charCodeAt(0));
  return new Blob([bytes], { type: match[1] || 'application/octet-stream' });
}

export interface LabelReading extends LabelText {
  /** The OCR text, for the clerk to see what was read. */
  text: string;
  /** Tesseract's mean word confidence, 0-100. */
  ocrConfidence: number;
  /** Where the tracking number came from: the label's barcode (validated), its printed text, or nowhere. */
  trackingSource: 'barcode' | 'text' | null;
  /** Which decoding attempt read the barcode (0 the photo as it is, then each retry), for the evaluation. */
  barcodeAttempt: number | null;
  /** Milliseconds spent in each step, for the evaluation. */
  steps: { barcode: number; prepare: number; ocr: number; secondOcr: number };
}

/**
 * Reads a label photo (a File, Blob, or the dialog's data URL) on this device: its barcode by
 * ZXing and its text by Tesseract, side by side (the OCR in its worker, the decoder here). A
 * barcode's tracking number that validates wins over one read from the printed text (a barcode
 * read is exact or nothing; OCR mistakes 8 for B); the text gives the sender and addressee.
 */
export async function readLabel(image: Blob | string, onProgress?: OnProgress): Promise<LabelReading> {
  const blob = typeof image === 'string' ? blobOf(image) : image;
  progressListener = onProgress ?? null;
  let bitmap: ImageBitmap | null = null;
  try {
    onProgress?.('loading', 0);
    const [opened, w] = await Promise.all([open(blob), getWorker()]);
    bitmap = opened;
    // The barcode first: its number is exact, and where it lies tells the OCR what to skip and
    // how far the label is turned.
    const steps = { barcode: 0, prepare: 0, ocr: 0, secondOcr: 0 };
    let mark = performance.now();
    const lap = () => {
      const now = performance.now();
      const ms = now - mark;
      mark = now;
      return Math.round(ms);
    };
    const region = regionOf(opened);
    const fromBarcode = tuning.barcode
      ? await readLabelBarcode(opened, tuning.barcodeInRegion ? region : undefined)
      : null;
    steps.barcode = lap();
    const canvas = tuning.prepare ? await prepare(opened, fromBarcode, region) : blob;
    steps.prepare = lap();
    const rotateAuto = tuning.rotateAuto && !(fromBarcode && tuning.levelByBarcode && tuning.prepare);
    onProgress?.('reading', 0);
    await w.setParameters({ tessedit_pageseg_mode: tuning.psm });
    const { data } = await w.recognize(canvas, { rotateAuto });
    steps.ocr = lap();
    const text = extractLabel(data.text);
    const first: LabelReading = {
      ...text,
      ...(fromBarcode ? { trackingNumber: fromBarcode.trackingNumber, carrier: fromBarcode.carrier } : {}),
      trackingSource: fromBarcode ? 'barcode' : text.trackingNumber ? 'text' : null,
      barcodeAttempt: fromBarcode?.attempt ?? null,
      text: data.text,
      ocrConfidence: data.confidence,
      steps,
    };
    if (!tuning.secondPass || (first.trackingNumber && (first.addresseeByHeading || !tuning.secondPassForHeading)))
      return first;
    // Read as one block, a barcode merges with the number printed beside it; read as sparse
    // text, it stays apart. Only when the first reading missed something, so most labels read once.
    await w.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT });
    const { data: sparse } = await w.recognize(canvas, { rotateAuto });
    steps.secondOcr = lap();
    const second = extractLabel(sparse.text);
    const useSecond = !first.addresseeByHeading && second.addresseeByHeading;
    return {
      ...first,
      trackingNumber: first.trackingNumber ?? second.trackingNumber,
      carrier: first.trackingNumber ? first.carrier : second.carrier,
      trackingSource: first.trackingSource ?? (second.trackingNumber ? 'text' : null),
      ...(useSecond ? { sender: second.sender, addressee: second.addressee, addresseeByHeading: true } : {}),
      text: `${data.text}\n${sparse.text}`,
    };
  } finally {
    bitmap?.close();
    progressListener = null;
  }
}
