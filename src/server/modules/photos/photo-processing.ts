import sharp from 'sharp';
import { PHOTO_MAX_BYTES, PHOTO_TOO_LARGE } from '../../../contract';
import { badRequest, type AppError } from '../../lib/errors';

/** A photo re-encoded for storage: EXIF and other metadata gone, orientation applied. */
export type ProcessedPhoto = {
  data: Buffer;
  thumbnail: Buffer;
  width: number;
  height: number;
  contentType: 'image/jpeg' | 'image/png';
};

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif']);
/** Refuses decompression bombs before any pixel is decoded: 40 megapixels is far above any phone camera's need. */
const MAX_INPUT_PIXELS = 40_000_000;
const STORED_EDGE = 1600;
const THUMBNAIL_EDGE = 320;

const PHOTO_TYPE_MESSAGE = 'The photo must be a JPEG, PNG, WebP or GIF image';
const PHOTO_SIZE_MESSAGE = PHOTO_TOO_LARGE;
const PHOTO_PIXELS_MESSAGE = 'The photo has too many pixels (more than 40 megapixels). Please use a smaller image.';

/** An image as a client sends it, a data URL or bare base64: its bytes, or the given refusals. */
export function decodeImageData(
  data: string,
  maxBytes: number,
  refusals: { invalid: AppError; tooLarge: AppError },
): Buffer {
  const base64 = data.startsWith('data:') ? data.slice(data.indexOf(',') + 1) : data;
  const compact = base64.replace(/\s/g, '');
  if (compact === '' || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) throw refusals.invalid;
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > maxBytes) throw refusals.tooLarge;
  return bytes;
}

/** `photoData` as the client sends it: a data URL or bare base64. */
export function decodePhotoData(photoData: string): Buffer {
  return decodeImageData(photoData, PHOTO_MAX_BYTES, {
    invalid: badRequest(PHOTO_TYPE_MESSAGE, 'invalid_photo'),
    tooLarge: badRequest(PHOTO_SIZE_MESSAGE, 'photo_too_large'),
  });
}

/**
 * Checks the image by its content (never by a name or a claimed type), refuses bombs, and
 * re-encodes it as JPEG with a thumbnail. Metadata (EXIF, GPS) is dropped by re-encoding.
 */
export async function processPhoto(bytes: Buffer): Promise<ProcessedPhoto> {
  let format: string | undefined;
  let pixels = 0;
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    format = meta.format;
    pixels = (meta.width ?? 0) * (meta.height ?? 0);
  } catch {
    throw badRequest(PHOTO_TYPE_MESSAGE, 'invalid_photo');
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw badRequest(PHOTO_TYPE_MESSAGE, 'invalid_photo');
  if (pixels > MAX_INPUT_PIXELS) throw badRequest(PHOTO_PIXELS_MESSAGE, 'photo_too_many_pixels');
  try {
    // rotate() applies the EXIF orientation before the metadata is dropped.
    const base = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
    const stored = await base
      .clone()
      .resize(STORED_EDGE, STORED_EDGE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    const thumbnail = await base
      .clone()
      .resize(THUMBNAIL_EDGE, THUMBNAIL_EDGE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 70, mozjpeg: true })
      .toBuffer();
    return {
      data: stored.data,
      thumbnail,
      width: stored.info.width,
      height: stored.info.height,
      contentType: 'image/jpeg',
    };
  } catch {
    throw badRequest('Could not process the image. Please try again.', 'invalid_photo');
  }
}
