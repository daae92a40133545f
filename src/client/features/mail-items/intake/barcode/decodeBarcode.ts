// The ZXing reader's WebAssembly, emitted into our own build (never fetched from a CDN).
import zxingReaderWasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import type { BarcodeDetector, BarcodeFormat } from 'barcode-detector/ponyfill';
import { itemIdFromSlip, locationIdFromLabel } from '@/lib/printing';
import { detectCourier, trackingFromBarcode } from '../courier/detectCourier';

/** Formats found on shipping labels: carriers' 1D codes, plus 2D codes some labels carry. */
const FORMATS: BarcodeFormat[] = [
  'code_128',
  'code_39',
  'code_93',
  'codabar',
  'itf',
  'ean_13',
  'ean_8',
  'upc_a',
  'upc_e',
  'databar',
  'databar_expanded',
  'qr_code',
  'data_matrix',
  'pdf417',
];

let detector: Promise<BarcodeDetector> | null = null;

/**
 * The barcode-detector ponyfill (ZXing in WebAssembly), loaded on first use. The native
 * BarcodeDetector is not used: most desktop browsers lack it and its formats differ.
 */
export function loadBarcodeDetector(): Promise<BarcodeDetector> {
  detector ??= import('barcode-detector/ponyfill')
    .then(async ({ BarcodeDetector: Detector, prepareZXingModule }) => {
      await prepareZXingModule({
        overrides: {
          locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? zxingReaderWasmUrl : prefix + path),
        },
        fireImmediately: true,
      });
      return new Detector({ formats: FORMATS });
    })
    .catch((err: unknown) => {
      detector = null;
      throw err;
    });
  return detector;
}

/** Everything the barcode reader accepts: a video frame, an image, a canvas or a file. */
export type BarcodeSource = Parameters<BarcodeDetector['detect']>[0];

/** What Log Mail's scan read: a parcel's tracking number, one of our shelf labels, or one of our slips. */
export type ScannedCode =
  | { kind: 'tracking'; trackingNumber: string }
  | { kind: 'location'; locationId: string }
  | { kind: 'slip'; itemId: string };

/** What one decoded value is: our own labels by their prefix (decision 034), anything else a parcel's. */
export function classifyScan(raw: string): ScannedCode | null {
  const locationId = locationIdFromLabel(raw);
  if (locationId) return { kind: 'location', locationId };
  const itemId = itemIdFromSlip(raw);
  if (itemId) return { kind: 'slip', itemId };
  const trackingNumber = trackingFromBarcode(raw);
  return trackingNumber ? { kind: 'tracking', trackingNumber } : null;
}

/**
 * Reads the barcodes in the source. A shelf label wins (the clerk held it up on purpose); else the
 * tracking number among them (the first code that looks like one, else the longest code); a slip
 * of ours only when nothing else is there; null when there is nothing.
 */
export async function decodeScan(source: BarcodeSource): Promise<ScannedCode | null> {
  const reader = await loadBarcodeDetector();
  const found = (await reader.detect(source)).map((b) => classifyScan(b.rawValue)).filter((s) => s !== null);
  const location = found.find((s) => s.kind === 'location');
  if (location) return location;
  const numbers = found.flatMap((s) => (s.kind === 'tracking' ? [s.trackingNumber] : []));
  const trackingNumber = numbers.find((v) => detectCourier(v)) ?? numbers.sort((a, b) => b.length - a.length)[0];
  if (trackingNumber) return { kind: 'tracking', trackingNumber };
  return found[0] ?? null;
}
