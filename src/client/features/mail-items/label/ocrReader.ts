import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { version } from 'tesseract.js/package.json';
import { extractLabel, type LabelText } from './extractLabel';

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
export const tuning = { psm: PSM.SINGLE_BLOCK, prepare: true, rotateAuto: true, secondPass: true, crop: true };

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

/**
 * The photo as the reader sees it best: scaled to READ_SIDE on its long side, grey, and its
 * contrast stretched between the darkest and lightest 1% (labels photographed in a dim mailroom
 * or printed by a tired thermal printer come out grey on grey).
 */
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

export async function prepare(image: Blob): Promise<HTMLCanvasElement> {
  const bitmap = await decode(image);
  if (bitmap.width * bitmap.height > MAX_PIXELS) {
    bitmap.close();
    throw new LabelImageError('This image is too large to read. Take the photo again at a normal size.');
  }
  const box = tuning.crop ? labelBox(bitmap) : { x: 0, y: 0, width: bitmap.width, height: bitmap.height };
  // Up to twice the size: a label photographed from afar has print too small for the reader.
  const scale = Math.min(2, READ_SIDE / Math.max(box.width, box.height));
  const width = Math.max(1, Math.round(box.width * scale));
  const height = Math.max(1, Math.round(box.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new LabelImageError('This browser cannot prepare images for reading.');
  context.drawImage(bitmap, box.x, box.y, box.width, box.height, 0, 0, width, height);
  bitmap.close();
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
}

/** Reads a label photo (a File, Blob, or the dialog's data URL) on this device. */
export async function readLabel(image: Blob | string, onProgress?: OnProgress): Promise<LabelReading> {
  const blob = typeof image === 'string' ? blobOf(image) : image;
  progressListener = onProgress ?? null;
  try {
    onProgress?.('loading', 0);
    const [canvas, w] = await Promise.all([tuning.prepare ? prepare(blob) : blob, getWorker()]);
    onProgress?.('reading', 0);
    await w.setParameters({ tessedit_pageseg_mode: tuning.psm });
    const { data } = await w.recognize(canvas, { rotateAuto: tuning.rotateAuto });
    const first = { ...extractLabel(data.text), text: data.text, ocrConfidence: data.confidence };
    if (!tuning.secondPass || (first.trackingNumber && first.addresseeByHeading)) return first;
    // Read as one block, a barcode merges with the number printed beside it; read as sparse
    // text, it stays apart. Only when the first reading missed something, so most labels read once.
    await w.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT });
    const { data: sparse } = await w.recognize(canvas, { rotateAuto: tuning.rotateAuto });
    const second = extractLabel(sparse.text);
    const useSecond = !first.addresseeByHeading && second.addresseeByHeading;
    return {
      ...first,
      trackingNumber: first.trackingNumber ?? second.trackingNumber,
      carrier: first.trackingNumber ? first.carrier : second.carrier,
      ...(useSecond ? { sender: second.sender, addressee: second.addressee, addresseeByHeading: true } : {}),
      text: `${data.text}\n${sparse.text}`,
    };
  } finally {
    progressListener = null;
  }
}
