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

/** Long side the photo is scaled to before reading: phone photos are 4000 px, labels read well at this. */
export const READ_SIDE = 1600;
/** Pixels beyond this are refused before decoding a second time (a 100-megapixel image would stall the tab). */
const MAX_PIXELS = 60_000_000;

export class LabelImageError extends Error {}

export type ReadStage = 'loading' | 'reading';
export type OnProgress = (stage: ReadStage, progress: number) => void;

/** The reader's settings; the evaluation (scripts/labels) varies them to compare. */
export const tuning = { psm: PSM.SINGLE_BLOCK, prepare: true, rotateAuto: true, secondPass: true };

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
export async function prepare(image: Blob): Promise<HTMLCanvasElement> {
  const bitmap = await decode(image);
  if (bitmap.width * bitmap.height > MAX_PIXELS) {
    bitmap.close();
    throw new LabelImageError('This image is too large to read. Take the photo again at a normal size.');
  }
  const scale = Math.min(1, READ_SIDE / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new LabelImageError('This browser cannot prepare images for reading.');
  context.drawImage(bitmap, 0, 0, width, height);
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
