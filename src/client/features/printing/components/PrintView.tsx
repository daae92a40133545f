import { Printer, X } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { tabListClass } from '@/components/ui/tab-styles';
import { cn } from '@/lib/cn';
import { PAPER_WIDTH, PRINT_FORMATS, pageRule, type PrintFormat, type PrintKind } from '../printFormats';

interface PrintViewProps {
  kind: PrintKind;
  title: string;
  /** "3 labels": what Print prints. */
  summary: string;
  format: PrintFormat;
  onFormatChange: (format: PrintFormat) => void;
  /** Where Close goes when the browser will not close the tab (it was not opened by the app). */
  closeTo: string;
  /** Nothing to print yet (loading, failed, empty): Print is off. */
  ready: boolean;
  /** Said above the paper and never printed (items that no longer exist). */
  notice?: ReactNode;
  children: ReactNode;
}

function FormatChoice({ format, onChange }: { format: PrintFormat; onChange: (format: PrintFormat) => void }) {
  return (
    <fieldset className="min-w-0">
      <legend className="sr-only">Paper</legend>
      <div className={cn(tabListClass, 'grid grid-cols-3 sm:inline-flex')}>
        {PRINT_FORMATS.map((option) => (
          <label
            key={option.value}
            title={option.hint}
            className={cn(
              'relative cursor-pointer rounded-md px-3 py-1.5 text-center text-sm font-medium whitespace-nowrap transition-colors hover:text-fg',
              'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500',
              format === option.value && 'bg-surface text-fg shadow-sm',
            )}
          >
            <input
              type="radio"
              name="print-format"
              value={option.value}
              checked={format === option.value}
              onChange={() => onChange(option.value)}
              className="sr-only"
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * A print view: a toolbar that never prints (paper, Print, Close) over the labels or slips drawn
 * at the size they print, on the paper chosen. The page's CSS `@page` rule gives the print dialog
 * (and a PDF) that paper; everything around the paper is screen-only.
 */
export function PrintView({
  kind,
  title,
  summary,
  format,
  onFormatChange,
  closeTo,
  ready,
  notice,
  children,
}: PrintViewProps) {
  useEffect(() => {
    const previous = document.title;
    document.title = `${title} · Pigeonhole`;
    return () => {
      document.title = previous;
    };
  }, [title]);

  const close = () => {
    window.close();
    // still here: the tab was not opened by the app, so it may not close itself
    setTimeout(() => window.location.assign(closeTo), 150);
  };

  return (
    <div className="min-h-dvh bg-canvas print:min-h-0 print:bg-white">
      <style>{`${pageRule(format, kind)}\n@media print { html, body { background: #fff !important; } }`}</style>
      <header
        role="toolbar"
        aria-label="Print"
        className="sticky top-0 z-10 border-b border-line bg-surface/95 backdrop-blur print:hidden"
      >
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-4 gap-y-3 px-4 py-3 sm:px-6">
          <div className="min-w-0 flex-1 basis-40">
            <h1 className="truncate text-base font-semibold text-fg">{title}</h1>
            <p className="text-sm text-fg-subtle">{summary}</p>
          </div>
          <FormatChoice format={format} onChange={onFormatChange} />
          <div className="flex gap-2">
            <Button onClick={() => window.print()} disabled={!ready}>
              <Printer aria-hidden /> Print
            </Button>
            <Button variant="outline" onClick={close}>
              <X aria-hidden /> Close
            </Button>
          </div>
        </div>
        <p className="mx-auto max-w-5xl px-4 pb-3 text-xs text-fg-subtle sm:px-6">
          {format === 'label62'
            ? 'In the print dialog choose the label printer, 62 mm continuous tape, no margins and 100 % scale.'
            : 'In the print dialog choose 100 % scale (not “fit to page”) so the codes keep their size.'}
        </p>
      </header>
      {notice && <div className="mx-auto max-w-5xl px-4 pt-4 sm:px-6 print:hidden">{notice}</div>}
      <main className="overflow-x-auto px-4 py-6 sm:px-6 print:overflow-visible print:p-0">
        <div
          data-paper={format}
          style={{ width: PAPER_WIDTH[format] }}
          className={cn(
            'mx-auto text-black print:m-0 print:w-auto',
            // a sheet shows as paper on screen; the roll's labels show one by one (each is a page)
            format === 'label62'
              ? 'space-y-4 print:space-y-0'
              : 'bg-white p-[10mm] shadow-md ring-1 ring-black/5 print:bg-transparent print:p-0 print:shadow-none print:ring-0 max-sm:[zoom:0.42]',
          )}
        >
          {children}
        </div>
      </main>
    </div>
  );
}

/** The grid a sheet's labels or slips sit in; the roll stacks them a page each. */
export function PrintItems({ format, children }: { format: PrintFormat; children: ReactNode }) {
  return (
    <div className={format === 'label62' ? 'contents' : 'grid grid-cols-2 gap-[6mm] print:gap-[6mm]'}>{children}</div>
  );
}
