import sharp, { type Metadata } from 'sharp';
import { SIGNATURE_EMPTY, SIGNATURE_INVALID, SIGNATURE_MAX_BYTES, SIGNATURE_TOO_LARGE } from '../../../contract';
import { AppError, badRequest } from '../../lib/errors';
import { decodeImageData, type ProcessedPhoto } from './photo-processing';

/** A signature pad is a strip of a screen; larger is not a drawn signature. */
const MAX_EDGE = 4000;
const THUMBNAIL_WIDTH = 320;
/** Dark enough to be ink on the white the pad is flattened onto (0 black .. 255 white). */
const INK_LEVEL = 160;
/** Fewer inked pixels than this is a tap, not a signature (a short stroke of a 2-pixel pen has hundreds). */
const MIN_INK_PIXELS = 60;

/** `signatureData` as the pad sends it: a PNG data URL, or bare base64. */
export function decodeSignatureData(data: string): Buffer {
  return decodeImageData(data, SIGNATURE_MAX_BYTES, {
    invalid: badRequest(SIGNATURE_INVALID, 'invalid_signature'),
    tooLarge: badRequest(SIGNATURE_TOO_LARGE, 'signature_too_large'),
  });
}

/**
 * Checks a drawn signature by its content: a PNG of a pad's size with some ink on it. Stored as a
 * PNG flattened onto white (it prints on receipts and shows on a dark theme alike), metadata gone,
 * with a thumbnail for the timeline.
 */
export async function processSignature(bytes: Buffer): Promise<ProcessedPhoto> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: MAX_EDGE * MAX_EDGE }).metadata();
  } catch {
    throw badRequest(SIGNATURE_INVALID, 'invalid_signature');
  }
  const { format, width = 0, height = 0 } = meta;
  if (format !== 'png' || width > MAX_EDGE || height > MAX_EDGE || width < 1 || height < 1) {
    throw badRequest(SIGNATURE_INVALID, 'invalid_signature');
  }
  try {
    const flat = sharp(bytes, { failOn: 'error' }).flatten({ background: '#ffffff' });
    const grey = await flat.clone().greyscale().raw().toBuffer();
    let ink = 0;
    for (const level of grey) if (level < INK_LEVEL) ink++;
    if (ink < MIN_INK_PIXELS) throw badRequest(SIGNATURE_EMPTY, 'signature_empty');
    const stored = await flat.clone().png({ palette: true, compressionLevel: 9 }).toBuffer({ resolveWithObject: true });
    const thumbnail = await flat
      .clone()
      .resize(THUMBNAIL_WIDTH, THUMBNAIL_WIDTH, { fit: 'inside', withoutEnlargement: true })
      .png({ palette: true })
      .toBuffer();
    return {
      data: stored.data,
      thumbnail,
      width: stored.info.width,
      height: stored.info.height,
      contentType: 'image/png',
    };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw badRequest(SIGNATURE_INVALID, 'invalid_signature');
  }
}
