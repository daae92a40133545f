/**
 * Pure geometry of a decoded barcode in a grey image (issue 28, decision 042), apart from the
 * reader so it is unit-tested on made-up pixels.
 */

/**
 * How far the label is turned, read from its barcode's bars: ZXing reports the decoded rows as an
 * upright box, not the bars' slant, so the row through the middle of that box is compared with
 * rows above and below it; the shift that lines their bars up is the slant (bars stand at right
 * angles to the label's text). Radians, positive clockwise; 0 when the bars do not line up.
 */
export function barcodeSlant(
  grey: Uint8Array,
  width: number,
  height: number,
  corners: ReadonlyArray<{ x: number; y: number }>,
): number {
  const xs = corners.map((c) => c.x);
  const ys = corners.map((c) => c.y);
  const x0 = Math.max(0, Math.round(Math.min(...xs)));
  const x1 = Math.min(width - 1, Math.round(Math.max(...xs)));
  const yc = Math.round((Math.min(...ys) + Math.max(...ys)) / 2);
  const length = x1 - x0;
  if (length < 40) return 0;
  // Rows a tenth of the code's length apart: inside the bars of any carrier's code (a fifth as tall as long).
  const d = Math.max(4, Math.round(length * 0.05));
  if (yc - d < 0 || yc + d >= height) return 0;
  const maxShift = Math.round(2 * d * Math.tan((15 * Math.PI) / 180));
  const inner0 = x0 + maxShift;
  const inner1 = x1 - maxShift;
  if (inner1 - inner0 < 20) return 0;
  let best = 0;
  let bestCost = Infinity;
  for (let shift = -maxShift; shift <= maxShift; shift++) {
    // The row above moved back by half the shift, the row below on by the rest: `shift` apart in
    // all (rounding both halves the same way would compare even shifts only).
    const back = Math.floor(shift / 2);
    const on = shift - back;
    let cost = 0;
    for (let x = inner0; x < inner1; x++) {
      cost += Math.abs(grey[(yc - d) * width + x - back]! - grey[(yc + d) * width + x + on]!);
    }
    // On a tie (no bars at all), the smaller slant.
    if (cost < bestCost || (cost === bestCost && Math.abs(shift) < Math.abs(best))) [best, bestCost] = [shift, cost];
  }
  return best === 0 ? 0 : -Math.atan2(best, 2 * d);
}
