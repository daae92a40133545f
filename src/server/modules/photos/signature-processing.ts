import sharp from 'sharp';
import {
  SIGNATURE_EMPTY,
  SIGNATURE_INVALID,
  SIGNATURE_MAX_BYTES,
  SIGNATURE_MAX_HEIGHT,
  SIGNATURE_MAX_WIDTH,
  SIGNATURE_TOO_LARGE,
  SIGNATURE_TOO_MANY_PIXELS,
} from '../../../contract';
import { AppError, badRequest } from '../../lib/errors';
import { decodeImageData, type ProcessedPhoto } from './photo-processing';

const THUMBNAIL_WIDTH = 320;
/** Dark enough to be ink on the white the pad is flattened onto (0 black .. 255 white). */
const INK_LEVEL = 160;
/** Fewer inked pixels than this is a tap, not a signature (a short stroke of a 2-pixel pen has hundreds). */
const MIN_INK_PIXELS = 60;
/**
 * Signatures decoded at once on this instance. sharp's work runs on libuv's threadpool (4 threads
 * by default), which also serves file reads, DNS and password hashing: twenty signatures at once
 * would hold all of it. The rest wait their turn, on no thread at all.
 */
const AT_ONCE = 2;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A PNG's size from its header (the IHDR chunk, which must come first: bytes 16 to 24), read
 * before a single pixel is decoded; undefined when the bytes are not a PNG. Microseconds, on the
 * event loop, whatever the image holds.
 */
function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** `signatureData` as the pad sends it: a PNG data URL, or bare base64. */
export function decodeSignatureData(data: string): Buffer {
  return decodeImageData(data, SIGNATURE_MAX_BYTES, {
    invalid: badRequest(SIGNATURE_INVALID, 'invalid_signature'),
    tooLarge: badRequest(SIGNATURE_TOO_LARGE, 'signature_too_large'),
  });
}

/**
 * Refuses what is not a pad's PNG by its header alone (decision 050): not a PNG, or more pixels
 * than a pad draws. Called before any rate is counted or any pixel decoded.
 */
export function checkSignatureHeader(bytes: Buffer): void {
  const size = pngSize(bytes);
  if (!size || size.width < 1 || size.height < 1) throw badRequest(SIGNATURE_INVALID, 'invalid_signature');
  if (size.width > SIGNATURE_MAX_WIDTH || size.height > SIGNATURE_MAX_HEIGHT) {
    throw badRequest(SIGNATURE_TOO_MANY_PIXELS, 'signature_too_many_pixels');
  }
}

let running = 0;
const waiting: Array<() => void> = [];

/** Runs `work` when fewer than AT_ONCE signatures are being decoded. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/**
 * Checks a drawn signature by its content: a PNG of a pad's size with some ink on it. Stored as a
 * PNG flattened onto white (it prints on receipts and shows on a dark theme alike), metadata gone,
 * with a thumbnail for the timeline.
 *
 * Nothing here touches a pixel on the event loop (decision 050): the header is read first; the
 * decoding, the ink count and the encoding are sharp's, on libuv's threadpool. The ink is counted
 * as a threshold's mean (ink 0, paper 255) by sharp's statistics, not by a loop in JavaScript.
 */
export async function processSignature(bytes: Buffer): Promise<ProcessedPhoto> {
  checkSignatureHeader(bytes);
  return inTurn(async () => {
    try {
      const input = { limitInputPixels: SIGNATURE_MAX_WIDTH * SIGNATURE_MAX_HEIGHT, failOn: 'error' as const };
      const flat = sharp(bytes, input).flatten({ background: '#ffffff' });
      const inked = await flat
        .clone()
        .greyscale()
        .threshold(INK_LEVEL)
        .extractChannel(0)
        .raw()
        .toBuffer({ resolveWithObject: true });
      const { width, height } = inked.info;
      const stats = await sharp(inked.data, { raw: { width, height, channels: 1 } }).stats();
      const ink = Math.round((width * height * (255 - stats.channels[0]!.mean)) / 255);
      if (ink < MIN_INK_PIXELS) throw badRequest(SIGNATURE_EMPTY, 'signature_empty');
      const stored = await flat
        .clone()
        .png({ palette: true, compressionLevel: 9 })
        .toBuffer({ resolveWithObject: true });
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
  });
}
