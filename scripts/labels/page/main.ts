/**
 * The evaluation's page (scripts/labels/evaluate.ts opens it in Chromium): the dialog's own
 * reading and matching modules, run on one generated label at a time, timed in the browser.
 */
import { decideRecipient, matchRecipient } from '../../../src/client/features/mail-items/label/matchRecipient';
import {
  open,
  prepare,
  readLabel,
  readLabelBarcode,
  regionOf,
  tuning,
} from '../../../src/client/features/mail-items/label/ocrReader';
import { SEED_RECIPIENTS } from '../seed';

export interface LabelResult {
  ms: number;
  trackingNumber: string | null;
  carrier: string | null;
  trackingSource: 'barcode' | 'text' | null;
  barcodeAttempt: number | null;
  steps: { barcode: number; prepare: number; ocr: number; secondOcr: number };
  addressee: string[];
  candidates: Array<{ id: string; confidence: number }>;
  filled: string | null;
  decision: string;
  text: string;
}

declare global {
  interface Window {
    evalLabel: (file: string, threshold: number) => Promise<LabelResult>;
    tuning: typeof tuning;
    prepared: (file: string) => Promise<string>;
  }
}

window.tuning = tuning;
/** The image as the reader sees it, for looking at (DUMP=label-01-ups.jpg npm run eval:labels). */
window.prepared = async (file) => {
  const bitmap = await open(await (await fetch(`/${file}`)).blob());
  const barcode = tuning.barcode ? await readLabelBarcode(bitmap, regionOf(bitmap)) : null;
  console.log(JSON.stringify(barcode));
  return (await prepare(bitmap, barcode)).toDataURL('image/png');
};
window.evalLabel = async (file, threshold) => {
  const image = await (await fetch(`/${file}`)).blob();
  const started = performance.now();
  const reading = await readLabel(image);
  const match = matchRecipient(reading.addressee, SEED_RECIPIENTS);
  const decision = decideRecipient(match, threshold);
  const ms = performance.now() - started;
  return {
    ms,
    trackingNumber: reading.trackingNumber,
    carrier: reading.carrier,
    trackingSource: reading.trackingSource,
    barcodeAttempt: reading.barcodeAttempt,
    steps: reading.steps,
    addressee: reading.addressee,
    candidates: match.candidates.map((c) => ({ id: c.recipient.id, confidence: c.confidence })),
    filled: decision.kind === 'filled' ? decision.candidate.recipient.id : null,
    decision: decision.kind === 'choose' ? `choose:${decision.reason}` : decision.kind,
    text: reading.text,
  };
};
