import {
  IMPORT_MAX_BYTES,
  IMPORT_TOO_LARGE,
  IMPORT_MAX_ROWS,
  type RecipientImportPreview,
  type RecipientImportResult,
  type RecipientImportRow,
} from '@contract';
import { AlertCircle, CheckCircle2, Copy, FileSpreadsheet, Upload } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/cn';
import { toastFailure } from '@/lib/useErrorToast';
import { useImportRecipients, useRecipientImportPreview } from '../api/importRecipients';

const TEMPLATE =
  'first name,last name,email,phone,unit,department,type\nJane,Doe,jane@example.com,555-0100,4B,,resident\n';
const TEMPLATE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE)}`;
/** Rows with problems come first; beyond this many the preview says how many more there are. */
const PREVIEW_ROWS_SHOWN = 200;

const count = new Intl.NumberFormat();
const plural = (n: number, one: string, many = `${one}s`) => `${count.format(n)} ${n === 1 ? one : many}`;

function importable(rows: RecipientImportRow[], skipDuplicates: boolean) {
  return rows.filter((row) => row.errors.length === 0 && !(skipDuplicates && row.duplicate)).length;
}

function SummaryChips({ summary }: { summary: RecipientImportPreview['summary'] }) {
  const chips = [
    { label: 'rows', value: summary.total, className: 'bg-surface-muted text-fg-secondary' },
    {
      label: 'valid',
      value: summary.valid,
      className: 'bg-emerald-50 dark:bg-emerald-950/40 text-emerald-700 dark:text-emerald-300',
    },
    {
      label: 'with errors',
      value: summary.invalid,
      className: 'bg-red-50 dark:bg-red-950/40 text-red-700 dark:text-red-300',
    },
    {
      label: summary.duplicates === 1 ? 'duplicate' : 'duplicates',
      value: summary.duplicates,
      className: 'bg-amber-50 dark:bg-amber-950/40 text-amber-800 dark:text-amber-300',
    },
  ];
  return (
    <ul aria-label="Import summary" className="grid grid-cols-2 gap-2 sm:grid-cols-4">
      {chips.map((chip) => (
        <li key={chip.label} className={cn('rounded-lg px-3 py-2', chip.className)}>
          <span className="block text-xl font-semibold">{count.format(chip.value)}</span>
          <span className="text-xs font-medium">{chip.label}</span>
        </li>
      ))}
    </ul>
  );
}

function PreviewRow({ row }: { row: RecipientImportRow }) {
  const { values } = row;
  const name = `${values.firstName} ${values.lastName}`.trim() || 'No name';
  const details = [values.email, values.unit && `Unit ${values.unit}`, values.department, values.recipientType]
    .filter(Boolean)
    .join(' · ');
  const invalid = row.errors.length > 0;
  return (
    <li className={cn('flex gap-3 px-3 py-2.5', invalid && 'bg-red-50/50 dark:bg-red-950/40')}>
      <span className="w-14 shrink-0 pt-0.5 text-xs text-fg-subtle tabular-nums">Line {row.line}</span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="truncate text-sm font-medium text-fg">{name}</p>
          {invalid ? (
            <Badge className="border-red-200 dark:border-red-800 bg-red-50 dark:bg-red-950/40 text-red-700 dark:text-red-300">
              Error
            </Badge>
          ) : row.duplicate ? (
            <Badge tone="yellow">Duplicate</Badge>
          ) : (
            <Badge tone="green">Ready</Badge>
          )}
        </div>
        {details && <p className="truncate text-xs text-fg-subtle">{details}</p>}
        {row.errors.map((error) => (
          <p key={error} className="mt-0.5 flex items-start gap-1 text-xs text-red-700 dark:text-red-300">
            <AlertCircle aria-hidden className="mt-px size-3.5 shrink-0" /> {error}
          </p>
        ))}
        {row.duplicate && (
          <p className="mt-0.5 flex items-start gap-1 text-xs text-amber-800 dark:text-amber-300">
            <Copy aria-hidden className="mt-px size-3.5 shrink-0" /> {row.duplicate.reason}
          </p>
        )}
      </div>
    </li>
  );
}

type Step =
  | { name: 'choose' }
  | { name: 'preview'; csv: string; preview: RecipientImportPreview }
  | { name: 'done'; result: RecipientImportResult };

interface ImportRecipientsDialogProps {
  organizationId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

function ImportFlow({ organizationId, onClose }: { organizationId: string; onClose: () => void }) {
  const ids = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<Step>({ name: 'choose' });
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [skipDuplicates, setSkipDuplicates] = useState(true);
  const preview = useRecipientImportPreview(organizationId);
  const commit = useImportRecipients(organizationId);

  const readFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > IMPORT_MAX_BYTES) {
      setProblem(IMPORT_TOO_LARGE);
      return;
    }
    file.text().then(
      (text) => {
        setCsv(text);
        setFileName(file.name);
        setProblem(null);
      },
      () => setProblem('Failed to read file'),
    );
  };

  const runPreview = () => {
    if (!csv.trim()) {
      setProblem('Choose a CSV file or paste its contents first.');
      return;
    }
    if (new Blob([csv]).size > IMPORT_MAX_BYTES) {
      setProblem(IMPORT_TOO_LARGE);
      return;
    }
    setProblem(null);
    preview.mutate(csv, {
      onSuccess: (result) => setStep({ name: 'preview', csv, preview: result }),
      onError: (err) => toastFailure('Import failed', err, 'The file could not be checked. Please try again.'),
    });
  };

  if (step.name === 'done') {
    const { result } = step;
    return (
      <div className="space-y-5 text-center">
        <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-emerald-50 dark:bg-emerald-950/40 text-emerald-600 dark:text-emerald-400">
          <CheckCircle2 aria-hidden className="size-6" />
        </span>
        <div role="status" className="space-y-1">
          <p className="text-lg font-semibold text-fg">Imported {plural(result.created, 'recipient')}</p>
          <p className="text-sm text-fg-subtle">
            {[
              result.skippedDuplicates > 0 && `${plural(result.skippedDuplicates, 'duplicate')} skipped`,
              result.invalid > 0 && `${plural(result.invalid, 'row')} with errors left out`,
            ]
              .filter(Boolean)
              .join(' · ') || 'Every row was added.'}
          </p>
        </div>
        <Button className="w-full sm:w-auto" onClick={onClose}>
          Done
        </Button>
      </div>
    );
  }

  if (step.name === 'preview') {
    const { rows, summary } = step.preview;
    const toImport = importable(rows, skipDuplicates);
    const ordered = [...rows].sort(
      (a, b) =>
        Number(b.errors.length > 0) - Number(a.errors.length > 0) ||
        Number(Boolean(b.duplicate)) - Number(Boolean(a.duplicate)) ||
        a.line - b.line,
    );
    const shown = ordered.slice(0, PREVIEW_ROWS_SHOWN);
    const importing = commit.isPending;
    const startImport = () =>
      commit.mutate(
        { csv: step.csv, skipDuplicates },
        {
          onSuccess: (result) => {
            setStep({ name: 'done', result });
            toast({ title: 'Import complete', description: `${plural(result.created, 'recipient')} added.` });
          },
          onError: (err) => toastFailure('Import failed', err, 'No recipients were imported. Please try again.'),
        },
      );

    return (
      <div className="space-y-4">
        <SummaryChips summary={summary} />
        {summary.invalid > 0 && (
          <p className="text-sm text-fg-muted">
            Rows with errors are not imported. Fix them in the file and check it again, or import the rest now.
          </p>
        )}
        <div className="rounded-lg border border-line">
          <ul aria-label="Rows in the file" className="max-h-72 divide-y divide-line-subtle overflow-y-auto">
            {shown.map((row) => (
              <PreviewRow key={row.line} row={row} />
            ))}
          </ul>
          {rows.length > shown.length && (
            <p className="border-t border-line px-3 py-2 text-xs text-fg-subtle">
              And {plural(rows.length - shown.length, 'more row')} without problems.
            </p>
          )}
        </div>
        {summary.duplicates > 0 && (
          <div className="flex items-center justify-between gap-4 rounded-lg bg-surface-subtle px-3 py-2.5">
            <Label htmlFor={`${ids}-skip`} className="font-normal">
              Skip duplicates
              <span className="block text-xs text-fg-subtle">
                Leave out rows that match an existing recipient or an earlier line.
              </span>
            </Label>
            <Switch
              id={`${ids}-skip`}
              checked={skipDuplicates}
              onCheckedChange={setSkipDuplicates}
              disabled={importing}
            />
          </div>
        )}
        {importing && (
          <div role="status" className="space-y-2">
            <p className="text-sm text-fg-muted">Importing {plural(toImport, 'recipient')}…</p>
            <div className="h-1.5 overflow-hidden rounded-full bg-surface-muted">
              <div className="h-full w-full animate-pulse rounded-full bg-indigo-600" />
            </div>
          </div>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => setStep({ name: 'choose' })} disabled={importing}>
            Back
          </Button>
          <Button onClick={startImport} disabled={importing || toImport === 0}>
            {importing ? 'Importing…' : `Import ${plural(toImport, 'recipient')}`}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="space-y-4">
      <input
        ref={fileInput}
        id={`${ids}-file`}
        type="file"
        accept=".csv,text/csv"
        className="sr-only"
        tabIndex={-1}
        aria-label="CSV file"
        onChange={readFile}
      />
      <button
        type="button"
        onClick={() => fileInput.current?.click()}
        className="flex w-full flex-col items-center gap-2 rounded-lg border-2 border-dashed border-line-strong px-4 py-6 text-center transition-colors hover:border-indigo-400 hover:bg-indigo-50/40 dark:hover:bg-indigo-950/40 focus-visible:border-indigo-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/30"
      >
        {fileName ? (
          <FileSpreadsheet aria-hidden className="size-7 text-indigo-600 dark:text-indigo-400" />
        ) : (
          <Upload aria-hidden className="size-7 text-fg-faint" />
        )}
        <span className="text-sm font-medium text-fg">{fileName ?? 'Choose a CSV file'}</span>
        <span className="text-xs text-fg-subtle">
          {fileName ? 'Choose another file' : `Up to 2 MB and ${count.format(IMPORT_MAX_ROWS)} rows`}
        </span>
      </button>
      <div className="space-y-1.5">
        <Label htmlFor={`${ids}-paste`}>Or paste CSV</Label>
        <Textarea
          id={`${ids}-paste`}
          value={csv}
          onChange={(event) => {
            setCsv(event.target.value);
            setFileName(null);
          }}
          rows={5}
          spellCheck={false}
          placeholder={TEMPLATE.trim()}
          aria-describedby={`${ids}-columns`}
          className="font-mono text-xs"
        />
        <p id={`${ids}-columns`} className="text-xs text-fg-subtle">
          Columns: first name, last name, email, phone, unit, department, type (guest, employee or resident). The first
          line holds the column names.{' '}
          <a
            href={TEMPLATE_HREF}
            download="recipients-template.csv"
            className="font-medium text-indigo-600 dark:text-indigo-400 hover:underline"
          >
            Download a template
          </a>
        </p>
      </div>
      {problem && (
        <p
          role="alert"
          className="rounded-lg bg-red-50 dark:bg-red-950/40 px-3 py-2 text-sm text-red-700 dark:text-red-300"
        >
          {problem}
        </p>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={runPreview} disabled={preview.isPending}>
          {preview.isPending ? 'Checking…' : 'Preview import'}
        </Button>
      </div>
    </div>
  );
}

/** Admins add many recipients from a CSV file: choose or paste, preview with errors and duplicates, import. */
export function ImportRecipientsDialog({ organizationId, open, onOpenChange }: ImportRecipientsDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Import recipients from CSV"
        description="Check the file first: nothing is saved until you confirm the import."
        className="max-w-2xl"
      >
        <ImportFlow organizationId={organizationId} onClose={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
