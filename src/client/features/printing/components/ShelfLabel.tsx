import type { Location } from '@contract';
import { locationLabelContent } from '@/lib/printing';
import { cn } from '@/lib/cn';
import { ROLL_LENGTH_MM, type PrintFormat } from '../printFormats';
import { QrCode } from './QrCode';

/** The roll label's name column: 62 mm less the padding, the QR and the gap (20 mm), in points. */
const ROLL_NAME_WIDTH_PT = 56;
/** A bold character's width, as a share of the type size, for a safe fit (wide letters included). */
const BOLD_CHAR_EM = 0.62;

/**
 * A long name still fits its label: the type shrinks as the name grows. On the roll, its longest
 * word must fit the name column whole too: at the name's own size "Locker 1" broke as "Lock / er".
 */
function nameSize(name: string, sheet: boolean): string {
  const pt = name.length <= 6 ? 24 : name.length <= 12 ? 18 : name.length <= 24 ? 13 : 10;
  if (sheet) return `${Math.round(pt * 1.3)}pt`;
  const longest = Math.max(1, ...name.split(/\s+/).map((word) => word.length));
  return `${Math.max(8, Math.min(pt, Math.floor(ROLL_NAME_WIDTH_PT / (BOLD_CHAR_EM * longest))))}pt`;
}

/**
 * A shelf label: the location's name large enough to read across the room, its mailroom, and a
 * QR that Log Mail's barcode scan (or a USB scanner) reads to choose this location.
 */
export function ShelfLabel({
  location,
  organizationName,
  format,
}: {
  location: Location;
  organizationName: string;
  format: PrintFormat;
}) {
  const sheet = format !== 'label62';
  return (
    <article
      aria-label={`Shelf label ${location.name}`}
      style={sheet ? undefined : { height: `${ROLL_LENGTH_MM.labels}mm` }}
      className={cn(
        'flex items-center overflow-hidden bg-white text-black',
        sheet
          ? 'h-[50mm] gap-[4mm] border border-dashed border-neutral-400 p-[4mm] break-inside-avoid'
          : 'w-[62mm] gap-[3mm] p-[3mm] shadow-md ring-1 ring-black/5 break-after-page last:break-after-auto print:shadow-none print:ring-0',
      )}
    >
      <QrCode
        value={locationLabelContent(location.id)}
        label={`QR code of the storage location ${location.name}`}
        className={sheet ? 'size-[40mm] shrink-0' : 'size-[33mm] shrink-0'}
      />
      <div className="min-w-0 flex-1 space-y-[1.5mm]">
        <p className="leading-tight font-bold" style={{ fontSize: nameSize(location.name, sheet) }}>
          {/* a word moves to the next line whole ("P-1" never splits at its hyphen) unless it is wider than the label */}
          {location.name.split(/(\s+)/).map((part, i) =>
            /^\s+$/.test(part) ? (
              ' '
            ) : (
              <span key={i} className="inline-block max-w-full [overflow-wrap:anywhere]">
                {part}
              </span>
            ),
          )}
        </p>
        <p className="text-[8pt] leading-snug font-medium [overflow-wrap:anywhere]">{location.mailroomName}</p>
        {sheet && <p className="text-[7pt] leading-snug text-neutral-600">{organizationName}</p>}
      </div>
    </article>
  );
}
