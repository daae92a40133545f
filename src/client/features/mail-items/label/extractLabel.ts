import { detectCourier, trackingKey } from '../../../../contract/tracking';

/**
 * What a shipping label's OCR text says (issue 28): the tracking number and its carrier, the
 * sender's lines and the addressee's lines. Pure, so it is unit-tested on text alone and the
 * evaluation (scripts/labels) measures the same code the dialog runs.
 */
export interface LabelText {
  trackingNumber: string | null;
  carrier: string | null;
  sender: string[];
  addressee: string[];
  /** True when the addressee lines were found by a "SHIP TO"/"TO:" heading, not guessed. */
  addresseeByHeading: boolean;
}

/** OCR's usual confusions of a digit with a letter, read back as the digit inside a number. */
const AS_DIGIT: Record<string, string> = {
  O: '0',
  Q: '0',
  D: '0',
  U: '0',
  I: '1',
  L: '1',
  '|': '1',
  '!': '1',
  T: '1',
  J: '1',
  Z: '2',
  S: '5',
  B: '8',
  G: '6',
  A: '4',
};

/** Every letter read as the digit it is most often confused with (characters with no digit twin stay). */
function digitsOf(text: string): string {
  return [...text].map((c) => (/\d/.test(c) ? c : (AS_DIGIT[c] ?? c))).join('');
}

/** Letters that OCR often reads as another letter or a digit, tried both ways in a UPS shipper number. */
const SHIPPER_TWINS: Record<string, string[]> = {
  '0': ['0', 'O'],
  O: ['O', '0'],
  '1': ['1', 'I'],
  I: ['I', '1'],
  L: ['1', 'L'],
  '5': ['5', 'S'],
  S: ['S', '5'],
  '8': ['8', 'B'],
  B: ['B', '8'],
  '2': ['2', 'Z'],
  Z: ['Z', '2'],
  '4': ['4', 'A'],
  A: ['A', '4'],
  '6': ['6', 'G'],
  G: ['G', '6'],
};

/**
 * The spellings of one OCR'd run of characters that could be the tracking number a carrier
 * printed, most likely first. Each carrier's fixed parts are repaired (UPS "1Z", Amazon "TBA",
 * DHL "JJD"), the parts that are always digits read as digits, and a UPS shipper number's
 * ambiguous characters tried both ways (the check digit decides).
 */
function spellings(run: string): string[] {
  const raw = run.toUpperCase().replace(/[^A-Z0-9|!]/g, '');
  const out = new Set<string>([raw]);
  // UPS: 1Z + 6 shipper characters + 10 digits (service, package, check digit).
  // The "1Z" must be there (a 2 alone is not a Z), and most of the ten digits must have been read
  // as digits: with 2^6 spellings of the shipper tried, the check digit alone (1 in 10) would let
  // an address line ("2200 CAMPUS DR APT4B") or a barcode's bars read as letters pass.
  const ups = /^[1IL|!7T][Z2]([A-Z0-9|!]{16})$/.exec(raw);
  if (ups?.[1] && (ups[1].slice(6).match(/\d/g)?.length ?? 0) >= 7) {
    const shipper = ups[1].slice(0, 6);
    const digits = digitsOf(ups[1].slice(6));
    let variants = [''];
    for (const c of shipper) {
      const twins = SHIPPER_TWINS[c] ?? [c];
      variants = variants.flatMap((v) => twins.map((t) => v + t));
    }
    for (const v of variants.slice(0, 256)) out.add(`1Z${v}${digits}`);
  }
  // Amazon: TBA + 12 digits.
  const amazon = /^[T7][B8][A4](.{12})$/.exec(raw);
  if (amazon?.[1]) out.add(`TBA${digitsOf(amazon[1])}`);
  // DHL eCommerce / Express piece ids: JJD + digits.
  const dhl = /^[J1I][J1I][D0O](.{8,})$/.exec(raw);
  if (dhl?.[1]) out.add(`JJD${digitsOf(dhl[1])}`);
  // FedEx, USPS, DHL numeric: all digits.
  out.add(digitsOf(raw));
  return [...out];
}

export interface TrackingFound {
  trackingNumber: string;
  carrier: string;
}

/** The carrier a label names in words ("FedEx Ground", "USPS TRACKING #", "UPS GROUND"), if any. */
function carrierNamed(lines: readonly string[]): string | null {
  const text = lines.join(' ').toUpperCase();
  if (/\bUSPS\b|POSTAL SERVICE|PRIORITY MAIL|GROUND ADVANTAGE/.test(text)) return 'USPS';
  if (/\bFED\s?EX\b/.test(text)) return 'FedEx';
  if (/\bUPS\b|\b1Z\b/.test(text)) return 'UPS';
  if (/\bDHL\b/.test(text)) return 'DHL';
  if (/\bAMAZON\b|\bTBA\b/.test(text)) return 'Amazon';
  return null;
}

const TRACKING_WORD = /TRACK|TRK|WAYBILL|AWB|\bNO\b|#/i;
/** At most this many OCR words make one tracking number printed in groups ("9400 1000 0000 …" is six). */
const MAX_GROUPS = 7;

/**
 * The tracking number in a label's OCR lines: every run of up to seven neighbouring words on a
 * line, each spelling repaired for OCR's confusions, kept when a carrier would issue it (the
 * format and check digit hold, by ts-tracking-number through the scanner path's detectCourier).
 * Among several, one the label calls a tracking number wins, then one of the carrier the label
 * names, then the longest.
 */
export function findTrackingNumber(lines: readonly string[]): TrackingFound | null {
  const named = carrierNamed(lines);
  const found: Array<TrackingFound & { score: number }> = [];
  // Sparse reading puts each group of a number on a line of its own: a line is read together
  // with the next two, as well as alone.
  const texts = lines.map((l) => l.trim()).filter(Boolean);
  const spans = texts.flatMap((line, index) => [
    { line, index },
    { line: texts.slice(index, index + 3).join(' '), index },
  ]);
  spans.forEach(({ line, index }) => {
    const words = line.split(/\s+/).filter((w) => /[A-Z0-9]/i.test(w));
    const labelled = TRACKING_WORD.test(line) || (index > 0 && /TRACK|TRK|WAYBILL/i.test(texts[index - 1] ?? ''));
    for (let i = 0; i < words.length; i++) {
      let run = '';
      for (let j = i; j < words.length && j < i + MAX_GROUPS; j++) {
        run += words[j]!.replace(/^[^A-Z0-9|!]+|[^A-Z0-9|!]+$/gi, '');
        if (run.length < 10) continue;
        if (run.length > 34) break;
        for (const spelling of spellings(run)) {
          const carrier = detectCourier(spelling);
          if (!carrier) continue;
          const exact = spelling === run.toUpperCase() ? 1 : 0;
          found.push({
            trackingNumber: trackingKey(spelling),
            carrier,
            score: (labelled ? 100 : 0) + (carrier === named ? 50 : 0) + spelling.length + exact,
          });
          break;
        }
      }
    }
  });
  found.sort((a, b) => b.score - a.score);
  const best = found[0];
  return best ? { trackingNumber: best.trackingNumber, carrier: best.carrier } : null;
}

const ADDRESSEE_HEADING = /^\s*(?:SHIP\s*TO|DELIVER\s*TO|DELIVERY\s*TO|TO|RECIPIENT|CONSIGNEE|ATTN)\b\s*[:.;-]?\s*/i;
const SENDER_HEADING = /^\s*(?:SHIP\s*FROM|FROM|SENDER|RETURN\s*(?:TO|ADDRESS)?|SHIPPER)\b\s*[:.;-]?\s*/i;
/** A line that ends an address block: carrier furniture, tracking, references, weights, dates. */
const BLOCK_END =
  /TRACK|TRK|\bREF\b|WEIGHT|\bWT\b|\bLBS?\b|\bKG\b|BILLING|\bDATE\b|SHIP\s*DATE|PRIORITY|GROUND|EXPRESS|POSTAGE|\bUSPS\b|\bUPS\b|FEDEX|\bDHL\b|SERVICE|PIECE|DIMS?\b|\bPKG\b|SCAN|\bCWT\b/i;
/** How many lines an address takes at most (name, company or attention, street, unit, city). */
const MAX_ADDRESS_LINES = 5;

function clean(line: string): string {
  return line.replace(/\s+/g, ' ').trim();
}

/** Lines of an address block starting at `start` (the heading's own line holds its first line when not empty). */
function blockAt(lines: readonly string[], start: number, heading: RegExp): string[] {
  const block: string[] = [];
  const first = clean((lines[start] ?? '').replace(heading, ''));
  // What OCR leaves after a heading is often a speck ("SHIP TO: ."): not the address's first line.
  if (/[A-Z0-9]/i.test(first)) block.push(first);
  for (let i = start + 1; i < lines.length && block.length < MAX_ADDRESS_LINES; i++) {
    const line = clean(lines[i] ?? '');
    if (!line) {
      if (block.length > 0) break;
      continue;
    }
    if (ADDRESSEE_HEADING.test(line) || SENDER_HEADING.test(line) || BLOCK_END.test(line)) break;
    block.push(line);
  }
  return block;
}

/** Only the lines with letters in them: OCR reads barcodes and box lines as runs of symbols. */
function texty(lines: readonly string[]): string[] {
  return lines.map(clean).filter((l) => (l.match(/[A-Z]/gi)?.length ?? 0) >= 2);
}

/**
 * The parts of a label's OCR text: its tracking number and carrier, the sender's block ("FROM",
 * "SHIP FROM", or the lines above the addressee on labels without a heading) and the addressee's
 * ("SHIP TO", "TO:", "DELIVER TO", "ATTN"…). Without any heading, every line that is not the
 * sender's is offered as the addressee (the matcher then finds the name among them).
 */
export function extractLabel(text: string): LabelText {
  const lines = text.split(/\r?\n/);
  const tracking = findTrackingNumber(lines);
  const toAt = lines.findIndex((l) => ADDRESSEE_HEADING.test(l) && !SENDER_HEADING.test(l));
  const fromAt = lines.findIndex((l) => SENDER_HEADING.test(l));
  const addressee = toAt >= 0 ? blockAt(lines, toAt, ADDRESSEE_HEADING) : [];
  let sender = fromAt >= 0 ? blockAt(lines, fromAt, SENDER_HEADING) : [];
  if (fromAt < 0 && toAt > 0) sender = texty(lines.slice(0, toAt)).slice(0, MAX_ADDRESS_LINES);
  const byHeading = addressee.length > 0;
  return {
    trackingNumber: tracking?.trackingNumber ?? null,
    carrier: tracking?.carrier ?? null,
    sender,
    addressee: byHeading ? addressee : texty(lines).filter((l) => !sender.includes(l)),
    addresseeByHeading: byHeading,
  };
}
