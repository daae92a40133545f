import { encode } from 'uqr';
import { useMemo } from 'react';

/**
 * A QR drawn as one SVG path of its dark modules: sharp at any printer's resolution, no image to
 * load, and the same library the server draws the pickup code's QR with. Black on white whatever
 * the screen's theme, with a two-module quiet zone (the label's white margin adds to it).
 */
export function QrCode({ value, label, className }: { value: string; label: string; className?: string }) {
  const { size, path } = useMemo(() => {
    const qr = encode(value, { ecc: 'M', border: 2 });
    let d = '';
    qr.data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`;
      }),
    );
    return { size: qr.size, path: d };
  }, [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      data-qr={value}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className={className}
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
