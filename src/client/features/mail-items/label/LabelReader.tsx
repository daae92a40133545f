import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Loader2, ScanText } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { recipientsQuery } from '@/lib/resources/recipients';
import type { RecipientChoice } from '../components/RecipientCombobox';
import { decideRecipient, matchRecipient, type RecipientCandidate } from './matchRecipient';

/** The settings' default until the organization sets its own (labelMatchThreshold, percent). */
export const DEFAULT_LABEL_THRESHOLD = 80;
/** Pages of the recipients list read to match against (500 a page, the list endpoint's maximum). */
const PAGE = 500;
const MAX_PAGES = 40;
/** Below this mean word confidence, with nothing found, the photo did not hold Latin text. */
const UNREADABLE_CONFIDENCE = 45;

type Status =
  | { kind: 'idle' }
  | { kind: 'loading'; progress: number }
  | { kind: 'reading'; progress: number }
  | { kind: 'done'; lines: string[]; tone: 'ok' | 'warn'; candidates: Array<RecipientCandidate<RecipientChoice>> }
  | { kind: 'error'; message: string };

export interface LabelReaderProps {
  organizationId: string;
  /** The dialog's photo (a data URL): read automatically each time a new one is taken or chosen. */
  photo: string | null;
  /**
   * The chosen file at full size, when the photo came from one: read instead of the photo, which
   * is resized to 800 px for storage, too small for a label's small print.
   */
  original?: Blob | null;
  threshold: number;
  /** Fill in the tracking number (the dialog answers false when the clerk already has one there). */
  onTracking: (trackingNumber: string) => boolean;
  /** Fill in the recipient matched above the threshold, or the one the clerk picked from the candidates. */
  onRecipient: (recipient: RecipientChoice, confidence: number | null) => boolean;
}

/** Every active recipient of the organization, page by page, from the query cache when loaded. */
async function loadRecipients(queryClient: QueryClient, organizationId: string): Promise<RecipientChoice[]> {
  const all: RecipientChoice[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const { items, total } = await queryClient.ensureQueryData(
      recipientsQuery(organizationId, { active: true, limit: PAGE, offset: page * PAGE }),
    );
    all.push(...items);
    if (all.length >= total || items.length < PAGE) break;
  }
  return all;
}

const who = (r: RecipientChoice) => `${r.firstName} ${r.lastName}${r.unit ? ` (${r.unit})` : ''}`;

/**
 * Log Mail's "Read label" (issue 28, decision 040): reads the photo's label on this device and
 * fills in the tracking number and, when the match reaches the organization's threshold, the
 * recipient, saying so ("matched from label, 87%"); below it the clerk picks from the
 * candidates. Every outcome is said in the dialog; nothing is filled in unseen and Log Mail works
 * by hand whatever happens here.
 */
export function LabelReader({ organizationId, photo, original, threshold, onTracking, onRecipient }: LabelReaderProps) {
  const queryClient = useQueryClient();
  const [state, setStatus] = useState<Status>({ kind: 'idle' });
  /** The photo last read, so a re-render does not read it again, and a late answer for an old photo is dropped. */
  const current = useRef<string | null>(null);

  const read = async (shown: string, image: Blob | string) => {
    current.current = shown;
    const stillCurrent = () => current.current === shown;
    setStatus({ kind: 'loading', progress: 0 });
    try {
      const [{ readLabel }, recipients] = await Promise.all([
        import('./ocrReader'),
        loadRecipients(queryClient, organizationId),
      ]);
      const reading = await readLabel(image, (stage, progress) => {
        if (stillCurrent()) setStatus({ kind: stage, progress });
      });
      if (!stillCurrent()) return;
      const lines: string[] = [];
      let tone: 'ok' | 'warn' = 'ok';
      // Text Tesseract was unsure of and with no address heading: blur, or another script (a
      // Cyrillic label read as English is a jumble of letters that could fuzzily match a name).
      const textUnreadable =
        !reading.text.trim() || (!reading.addresseeByHeading && reading.ocrConfidence < UNREADABLE_CONFIDENCE);
      if (textUnreadable && !reading.trackingNumber) {
        setStatus({
          kind: 'error',
          message:
            'No readable label text on this photo (blurred, too far, or not in the Latin alphabet). Take it again closer, or fill in by hand.',
        });
        return;
      }
      if (reading.trackingNumber) {
        const filled = onTracking(reading.trackingNumber);
        const number = `${reading.trackingNumber}${reading.carrier ? ` (${reading.carrier})` : ''}`;
        // A barcode's number passed its check digit as decoded; one read from print may have a
        // misread character that still passes it: the clerk is asked to compare.
        lines.push(
          !filled
            ? `The label reads ${reading.trackingNumber}; the tracking number already entered was kept.`
            : reading.trackingSource === 'barcode'
              ? `Tracking number ${number} read from the barcode.`
              : `Tracking number ${number} read from the printed text (no barcode could be read): check it against the label.`,
        );
      } else {
        tone = 'warn';
        lines.push('No tracking number found on the label: scan the barcode or type it.');
      }
      const decision = textUnreadable
        ? ({ kind: 'none' } as const)
        : decideRecipient(matchRecipient(reading.addressee, recipients), threshold);
      let candidates: Array<RecipientCandidate<RecipientChoice>> = [];
      if (textUnreadable) {
        tone = 'warn';
        lines.push(
          'No readable address on the label (blurred, or not in the Latin alphabet): pick the recipient by hand.',
        );
      } else if (decision.kind === 'filled') {
        const { recipient, confidence } = decision.candidate;
        lines.push(
          onRecipient(recipient, confidence)
            ? `Recipient ${who(recipient)} matched from label, ${confidence}%.`
            : `The label matches ${who(recipient)} (${confidence}%); the recipient already chosen was kept.`,
        );
      } else if (decision.kind === 'choose') {
        tone = 'warn';
        candidates = decision.candidates;
        lines.push(
          decision.reason === 'two-named'
            ? 'The label names more than one recipient: pick the right one.'
            : 'Not sure who the recipient is: pick one, or search by hand.',
        );
      } else {
        tone = 'warn';
        lines.push(
          reading.addressee.length > 0
            ? 'No recipient of this organization matches the label: pick one by hand, or add them.'
            : 'No addressee found on the label: pick the recipient by hand.',
        );
      }
      setStatus({ kind: 'done', lines, tone, candidates });
    } catch (err) {
      if (!stillCurrent()) return;
      const { LabelImageError } = await import('./ocrReader').catch(() => ({ LabelImageError: null }));
      setStatus({
        kind: 'error',
        message:
          LabelImageError && err instanceof LabelImageError
            ? err.message
            : 'The label reader could not start on this device. Fill in by hand.',
      });
    }
  };

  // A new photo is read at once (the camera's shot, or a file chosen).
  useEffect(() => {
    if (!photo) current.current = null;
    else if (photo !== current.current) void read(photo, original ?? photo);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read only when the photo changes
  }, [photo]);

  // Without a photo (removed, or the item was logged) nothing read before is shown.
  const status: Status = photo ? state : { kind: 'idle' };
  const busy = status.kind === 'loading' || status.kind === 'reading';
  const percent = busy ? Math.round(status.progress * 100) : 0;

  return (
    <div className="space-y-2 rounded-lg border border-line-subtle p-3" data-testid="label-reader">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={!photo || busy}
          onClick={() => photo && void read(photo, original ?? photo)}
        >
          {busy ? <Loader2 aria-hidden className="animate-spin" /> : <ScanText aria-hidden />} Read label
        </Button>
        <span className="text-xs text-fg-subtle">
          {photo
            ? 'Read on this device; the photo is sent only when you log the item.'
            : 'Add a photo of the label to read it.'}
        </span>
      </div>
      <div role="status" aria-live="polite" className="text-sm">
        {status.kind === 'loading' && <p>Loading the label reader (first time only)… {percent}%</p>}
        {status.kind === 'reading' && <p>Reading the label… {percent}%</p>}
        {status.kind === 'error' && <p className="text-amber-700 dark:text-amber-300">{status.message}</p>}
        {status.kind === 'done' &&
          status.lines.map((line) => (
            <p
              key={line}
              className={
                status.tone === 'warn' && !line.includes('matched from label')
                  ? 'text-amber-700 dark:text-amber-300'
                  : 'text-emerald-700 dark:text-emerald-300'
              }
            >
              {line}
            </p>
          ))}
      </div>
      {status.kind === 'done' && status.candidates.length > 0 && (
        <div className="flex flex-wrap gap-2" aria-label="Recipients the label may name">
          {status.candidates.map(({ recipient, confidence }) => (
            <Button
              key={recipient.id}
              type="button"
              variant="outline"
              size="sm"
              onClick={() => {
                onRecipient(recipient, null);
                setStatus({
                  ...status,
                  tone: 'ok',
                  candidates: [],
                  lines: [
                    ...status.lines.slice(0, -1),
                    `Recipient ${who(recipient)} chosen from the label's candidates.`,
                  ],
                });
              }}
            >
              {who(recipient)} · {confidence}%
            </Button>
          ))}
        </div>
      )}
    </div>
  );
}
