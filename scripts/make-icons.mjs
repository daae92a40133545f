#!/usr/bin/env node
/**
 * The installable web app's icons, drawn from src/client/public/favicon.svg with sharp:
 *   icons/icon-192.png, icons/icon-512.png        purpose "any" (the rounded mark, transparent corners)
 *   icons/icon-maskable-192.png, -512.png         purpose "maskable" (full-bleed background, the mark
 *                                                 inside the central 80 % safe zone)
 *   icons/apple-touch-icon.png                    180 × 180, full-bleed (iOS rounds it itself)
 * The PNGs are committed; run `node scripts/make-icons.mjs` again after changing the favicon.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const publicDir = fileURLToPath(new URL('../src/client/public/', import.meta.url));
const outDir = path.join(publicDir, 'icons');
const favicon = await fs.readFile(path.join(publicDir, 'favicon.svg'), 'utf8');

/** The favicon's colour and its mark (everything after the background rect), to redraw full-bleed. */
const background = /<rect[^>]*fill="(#[0-9a-fA-F]{3,8})"/.exec(favicon)?.[1];
const mark = /<g[\s\S]*<\/g>/.exec(favicon)?.[0];
if (!background || !mark) throw new Error('favicon.svg: expected a filled background <rect> and a <g> mark');

/** Full-bleed square with the mark scaled about the centre (the favicon's viewBox is 32 × 32). */
const fullBleed = (scale) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${background}"/>` +
  `<g transform="translate(16 16) scale(${scale}) translate(-16 -16)">${mark}</g></svg>`;

// The mark spans 18 × 16 of 32 (a diagonal of 75 %); at 0.85 it sits well inside the 80 % safe circle.
const maskable = fullBleed(0.85);

const outputs = [
  { file: 'icon-192.png', svg: favicon, size: 192 },
  { file: 'icon-512.png', svg: favicon, size: 512 },
  { file: 'icon-maskable-192.png', svg: maskable, size: 192 },
  { file: 'icon-maskable-512.png', svg: maskable, size: 512 },
  { file: 'apple-touch-icon.png', svg: fullBleed(1), size: 180 },
];

await fs.mkdir(outDir, { recursive: true });
for (const { file, svg, size } of outputs) {
  // render at the target size (density scales the 32-unit viewBox), so edges stay crisp
  await sharp(Buffer.from(svg), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(path.join(outDir, file));
  console.log(`  ${path.relative(process.cwd(), path.join(outDir, file))}  ${size}×${size}`);
}
