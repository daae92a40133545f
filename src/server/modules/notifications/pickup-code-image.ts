import sharp from 'sharp';
import { renderSVG } from 'uqr';

/**
 * The QR of a pickup code as a PNG for email: mail programs show attached PNGs inline, and many
 * refuse SVG. It holds the code as the desk shows it (K7M-4PX), so a desk scanner types it.
 */
export async function pickupCodeQrPng(code: string): Promise<Buffer> {
  return sharp(Buffer.from(renderSVG(code, { border: 2 })), { density: 300 })
    .resize(240, 240, { kernel: 'nearest' })
    .png()
    .toBuffer();
}
