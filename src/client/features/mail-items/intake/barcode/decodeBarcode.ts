// The ZXing reader's WebAssembly, emitted into our own build (never fetched from a CDN).
import zxingReaderWasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import type { BarcodeDetector, BarcodeFormat } from 'barcode-detector/ponyfill';
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

/**
 * Reads the barcodes in the source and returns the tracking number among them (the first code that
 * looks like one, else the longest code), or null when there is none.
 */
export async function decodeTrackingNumber(source: BarcodeSource): Promise<string | null> {
  const reader = await loadBarcodeDetector();
  const found = await reader.detect(source);
  if (found.length === 0) return null;
  const values = found.map((b) => trackingFromBarcode(b.rawValue)).filter(Boolean);
  return values.find((v) => detectCourier(v)) ?? values.sort((a, b) => b.length - a.length)[0] ?? null;
}
