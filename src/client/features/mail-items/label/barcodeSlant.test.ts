import { describe, expect, it } from 'vitest';
import { barcodeSlant } from './barcodeSlant';

const WIDTH = 400;
const HEIGHT = 240;
/** The box ZXing reports: upright, around the rows it decoded. */
const CORNERS = [
  { x: 60, y: 100 },
  { x: 340, y: 100 },
  { x: 340, y: 140 },
  { x: 60, y: 140 },
];

/** A grey image of bars (3-pixel modules in a fixed pattern) on a label turned by `degrees` clockwise. */
function bars(degrees: number): Uint8Array {
  const t = (degrees * Math.PI) / 180;
  const modules = Array.from({ length: 200 }, (_, i) => ((i * 7919) % 13) % 2 === 0);
  const grey = new Uint8Array(WIDTH * HEIGHT);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      // The point's position across the bars on the label itself (the turn undone).
      const u = (x - WIDTH / 2) * Math.cos(t) + (y - HEIGHT / 2) * Math.sin(t) + 300;
      grey[y * WIDTH + x] = modules[Math.floor(u / 3)] ? 20 : 235;
    }
  }
  return grey;
}

const degreesOf = (radians: number) => (radians * 180) / Math.PI;

describe('barcodeSlant', () => {
  it("reads the label's turn from its bars, either way, to within a degree", () => {
    expect(degreesOf(barcodeSlant(bars(0), WIDTH, HEIGHT, CORNERS))).toBeCloseTo(0, 0);
    expect(Math.abs(degreesOf(barcodeSlant(bars(6), WIDTH, HEIGHT, CORNERS)) - 6)).toBeLessThan(1);
    expect(Math.abs(degreesOf(barcodeSlant(bars(-9), WIDTH, HEIGHT, CORNERS)) + 9)).toBeLessThan(1);
  });

  it('answers 0 for no bars, and for a box too small or at the edge to compare rows in', () => {
    expect(barcodeSlant(new Uint8Array(WIDTH * HEIGHT).fill(200), WIDTH, HEIGHT, CORNERS)).toBe(0);
    const tiny = CORNERS.map((c) => ({ x: 60 + (c.x - 60) / 10, y: c.y }));
    expect(barcodeSlant(bars(6), WIDTH, HEIGHT, tiny)).toBe(0);
    const atTop = CORNERS.map((c) => ({ x: c.x, y: c.y - 100 - (c.y === 140 ? 40 : 0) }));
    expect(barcodeSlant(bars(6), WIDTH, HEIGHT, atTop)).toBe(0);
  });
});
