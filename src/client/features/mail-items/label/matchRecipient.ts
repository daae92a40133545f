/**
 * Which of the organization's recipients a label's addressee lines name (issue 28), with a
 * confidence 0-100. Pure and synchronous: the dialog runs it on the recipients it has loaded,
 * the evaluation on its seed list.
 *
 * A recipient's score is mostly their name: the last name against the label's best-matching
 * word, the first name (or its initial, "J. SMITH") against another word, each by the
 * Damerau-Levenshtein distance so OCR's and the sender's typos cost a little, not everything;
 * word order does not matter ("SMITH, JANE"). A unit or room printed on the label ("APT 4B",
 * "#4B", "UNIT 4B", "ROOM 204") raises the recipient living there and lowers one living
 * elsewhere; the department named raises it a little.
 */
export interface MatchableRecipient {
  id: string;
  firstName: string;
  lastName: string;
  unit: string | null;
  department: string | null;
}

export interface RecipientCandidate<R extends MatchableRecipient = MatchableRecipient> {
  recipient: R;
  /** 0-100. */
  confidence: number;
}

export interface RecipientMatch<R extends MatchableRecipient = MatchableRecipient> {
  /** Best first, at most five, each at least MIN_CANDIDATE. */
  candidates: Array<RecipientCandidate<R>>;
  /** Two different recipients both named on the label (not two spellings of one). */
  twoNamed: boolean;
}

/** Candidates below this are noise (a shared first name), not offered. */
export const MIN_CANDIDATE = 40;
const MAX_CANDIDATES = 5;
/** A word at least this similar counts as a (misspelt) reading of a name. */
const WORD_FLOOR = 0.6;
/** A second recipient named this well, by other words of the label, means the label names two. */
const SECOND_NAMED = 85;

/** Damerau-Levenshtein distance (optimal string alignment): a swap of two letters costs one edit. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** 1 for the same word, down to 0; below WORD_FLOOR counts as 0. */
export function wordSimilarity(a: string, b: string): number {
  if (!a || !b) return 0;
  if (a === b) return 1;
  const similarity = 1 - editDistance(a, b) / Math.max(a.length, b.length);
  return similarity >= WORD_FLOOR ? similarity : 0;
}

/** OCR reads letters inside names as digits now and then: read them back. */
const AS_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '5': 'S', '8': 'B', '4': 'A', '6': 'G', '2': 'Z' };

/** A name's words, upper case, accents and punctuation gone ("O'Brien-Smith" -> OBRIEN, SMITH). */
export function nameWords(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/['’`]/g, '')
    .split(/[^A-Z0-9]+/)
    .filter(Boolean)
    .map((w) => (/[A-Z]/.test(w) ? [...w].map((c) => AS_LETTER[c] ?? c).join('') : w));
}

/** A unit as compared: no "APT"/"UNIT"/"#"/"ROOM" prefix, no spaces or dashes, upper case ("Apt. 4-B" -> 4B). */
export function unitKey(unit: string): string {
  return unit
    .toUpperCase()
    .replace(/\b(?:APARTMENT|APT|UNIT|ROOM|RM|SUITE|STE|NO|NUMBER|FLAT|DORM)\b\.?/g, '')
    .replace(/[^A-Z0-9]/g, '');
}

const UNIT_ON_LABEL =
  /(?:\b(?:APARTMENT|APT|UNIT|ROOM|RM|SUITE|STE|FLAT)\b\.?\s*#?\s*|#\s*)([A-Z0-9]{1,3}-?[A-Z0-9]{0,4})\b/gi;

/** The units and rooms a label's addressee lines print ("APT 4B", "#4B", "UNIT 4B", "ROOM 204"). */
export function unitsOnLabel(lines: readonly string[]): string[] {
  const units = new Set<string>();
  for (const line of lines) for (const m of line.matchAll(UNIT_ON_LABEL)) if (m[1]) units.add(unitKey(m[1]));
  return [...units].filter(Boolean);
}

interface NameScore {
  /** 0-1. */
  score: number;
  /** The label's words the name was read from (indexes into the words). */
  used: number[];
}

/** How well `recipient`'s name is read in the label's words. */
function nameScore(recipient: MatchableRecipient, words: readonly string[]): NameScore {
  const lasts = nameWords(recipient.lastName);
  const firsts = nameWords(recipient.firstName);
  const used: number[] = [];
  // Each of the last name's words against its best label word (double-barrelled names count each).
  let last = 0;
  for (const part of lasts) {
    let best = 0;
    let at = -1;
    words.forEach((w, i) => {
      const s = wordSimilarity(part, w);
      if (s > best && !used.includes(i)) [best, at] = [s, i];
    });
    if (at >= 0) used.push(at);
    last += best / lasts.length;
  }
  if (last === 0) return { score: 0, used: [] };
  let first = 0;
  const firstName = firsts[0] ?? '';
  words.forEach((w, i) => {
    if (used.includes(i) || !firstName) return;
    // "J. SMITH": an initial is good evidence, not as good as the name.
    const s = w.length === 1 ? (w === firstName[0] ? 0.85 : 0) : wordSimilarity(firstName, w);
    if (s > first) first = s;
  });
  if (first > 0) {
    const at = words.findIndex(
      (w, i) => !used.includes(i) && (w.length === 1 ? w === firstName[0] : wordSimilarity(firstName, w) === first),
    );
    if (at >= 0) used.push(at);
  }
  return { score: 0.6 * last + 0.4 * first, used };
}

/**
 * The recipients the addressee lines name, best first, with their confidence. `twoNamed` when a
 * second recipient is named nearly as well by other words of the label (a label "JANE DOE &
 * JOHN ROE", or a shared mailbox): the dialog then fills in nobody and asks.
 */
export function matchRecipient<R extends MatchableRecipient>(
  addressee: readonly string[],
  recipients: readonly R[],
): RecipientMatch<R> {
  const words = addressee.flatMap(nameWords);
  if (words.length === 0) return { candidates: [], twoNamed: false };
  const units = unitsOnLabel(addressee);
  const text = ` ${words.join(' ')} `;
  const scored: Array<RecipientCandidate<R> & { used: number[]; name: number }> = [];
  for (const recipient of recipients) {
    const name = nameScore(recipient, words);
    if (name.score === 0) continue;
    let confidence = name.score * 100;
    const unit = recipient.unit ? unitKey(recipient.unit) : '';
    if (units.length > 0 && unit) confidence += units.includes(unit) ? 15 : -25;
    const department = recipient.department ? nameWords(recipient.department).join(' ') : '';
    if (department && text.includes(` ${department} `)) confidence += 5;
    confidence = Math.max(0, Math.min(100, Math.round(confidence)));
    if (confidence >= MIN_CANDIDATE) scored.push({ recipient, confidence, used: name.used, name: name.score });
  }
  scored.sort((a, b) => b.confidence - a.confidence);
  const best = scored[0];
  const twoNamed = Boolean(
    best &&
    scored.some(
      // By the name alone: "JANE DOE & JOHN ROE, APT 4B" names John too, though the unit is Jane's.
      (other) => other !== best && other.name * 100 >= SECOND_NAMED && !other.used.some((i) => best.used.includes(i)),
    ),
  );
  return {
    candidates: scored.slice(0, MAX_CANDIDATES).map(({ recipient, confidence }) => ({ recipient, confidence })),
    twoNamed,
  };
}

/** How far ahead of the runner-up the best candidate must be to be filled in on its own. */
const CLEAR_LEAD = 8;

export type RecipientDecision<R extends MatchableRecipient> =
  | { kind: 'filled'; candidate: RecipientCandidate<R> }
  | { kind: 'choose'; candidates: Array<RecipientCandidate<R>>; reason: 'below-threshold' | 'close' | 'two-named' }
  | { kind: 'none' };

/**
 * What the dialog does with a match at the organization's threshold (percent): fill in the best
 * candidate only when it reaches the threshold, clearly ahead of the next one, and the label
 * does not name two people; otherwise the clerk picks from the candidates.
 */
export function decideRecipient<R extends MatchableRecipient>(
  match: RecipientMatch<R>,
  threshold: number,
): RecipientDecision<R> {
  const [best, second] = match.candidates;
  if (!best) return { kind: 'none' };
  if (match.twoNamed) return { kind: 'choose', candidates: match.candidates, reason: 'two-named' };
  if (best.confidence < threshold) return { kind: 'choose', candidates: match.candidates, reason: 'below-threshold' };
  if (second && best.confidence - second.confidence < CLEAR_LEAD) {
    return { kind: 'choose', candidates: match.candidates, reason: 'close' };
  }
  return { kind: 'filled', candidate: best };
}
