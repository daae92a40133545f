import {
  ACCEPTED_IMAGE_TYPES,
  MESSAGES,
  MOBILE_SKIP_COMPRESSION_BYTES,
  MOBILE_UPLOAD_TARGET,
  PROCESSING_TIMEOUT_MS,
  dataUrlBytes,
  fileTooLargeMessage,
  rulesFor,
  type ResizeTarget,
} from './photoRules';

/** The file breaks a rule (type, size, pixels): nothing is sent and there is no fallback. */
export class PhotoRejected extends Error {
  override name = 'PhotoRejected';
}

/** Neither the optimized nor the plain conversion worked. */
export class PhotoUploadFailed extends Error {
  override name = 'PhotoUploadFailed';
  constructor(readonly hint: string) {
    super(MESSAGES.uploadFailed);
  }
}

export interface ProcessedPhoto {
  /** A data URL, as `photoData` is sent. */
  dataUrl: string;
  bytes: number;
  /** Set when optimizing failed and the file was sent as it is: why. */
  fallbackReason?: string;
}

/** Spec §5: the type and size checks, before the file is read. */
export function validatePhotoFile(file: File, mobile: boolean): string | null {
  if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)) return MESSAGES.invalidType;
  const rules = rulesFor(mobile);
  if (file.size > rules.maxBytes) return fileTooLargeMessage(file.size, rules);
  return null;
}

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error(MESSAGES.readFailed));
    reader.onerror = () => reject(new Error(MESSAGES.readFailed));
    reader.readAsDataURL(file);
  });
}

export function loadImage(file: Blob): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      URL.revokeObjectURL(url);
      resolve(img);
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error(MESSAGES.loadFailed));
    };
    img.src = url;
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(MESSAGES.couldNotProcess));
      },
    );
  });
}

/** Draws the source scaled to fit within the target (never enlarged) and encodes it as JPEG. */
export function drawToJpeg(source: CanvasImageSource, width: number, height: number, target: ResizeTarget): string {
  if (!width || !height) throw new Error(MESSAGES.couldNotProcess);
  const scale = Math.min(1, target.width / width, target.height / height);
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  const context = canvas.getContext('2d');
  if (!context) throw new Error(MESSAGES.noCanvas);
  // JPEG has no transparency: a white background instead of black.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  const dataUrl = canvas.toDataURL('image/jpeg', target.quality);
  if (!dataUrl.startsWith('data:image/')) throw new Error(MESSAGES.couldNotProcess);
  return dataUrl;
}

/** The current frame of a playing video, as a JPEG within the target. */
export function captureVideoFrame(video: HTMLVideoElement, target: ResizeTarget): string {
  return drawToJpeg(video, video.videoWidth, video.videoHeight, target);
}

/**
 * The current frame at the camera's full resolution, for reading on the device (the label
 * reader): the photo kept is the small JPEG above, too small for a label's print. Never sent.
 */
export function captureFullFrame(video: HTMLVideoElement): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const context = canvas.getContext('2d');
  if (!context || !canvas.width || !canvas.height) return Promise.reject(new Error(MESSAGES.noCanvas));
  context.drawImage(video, 0, 0);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error(MESSAGES.couldNotProcess))), 'image/jpeg', 0.92),
  );
}

async function optimize(file: File, mobile: boolean): Promise<string> {
  const rules = rulesFor(mobile);
  const img = await loadImage(file);
  if (img.naturalWidth * img.naturalHeight > rules.maxPixels) {
    throw new PhotoRejected(MESSAGES.tooManyPixels);
  }
  if (mobile && file.size <= MOBILE_SKIP_COMPRESSION_BYTES) return readAsDataUrl(file);
  const target = mobile ? MOBILE_UPLOAD_TARGET : rules.resize;
  let dataUrl = drawToJpeg(img, img.naturalWidth, img.naturalHeight, target);
  if (dataUrlBytes(dataUrl) > rules.recompressAbove) {
    dataUrl = drawToJpeg(img, img.naturalWidth, img.naturalHeight, { ...target, quality: rules.recompressQuality });
  }
  if (dataUrlBytes(dataUrl) > rules.recompressAbove) throw new Error(MESSAGES.cannotOptimize);
  return dataUrl;
}

/**
 * Spec §5/§9: checks the file, then resizes and compresses it within 10 s. When optimizing fails
 * the file is sent as it is; when that fails too, PhotoUploadFailed carries the device's hint.
 */
export async function processPhotoFile(file: File, mobile: boolean): Promise<ProcessedPhoto> {
  const invalid = validatePhotoFile(file, mobile);
  if (invalid) throw new PhotoRejected(invalid);
  try {
    const dataUrl = await withTimeout(optimize(file, mobile), PROCESSING_TIMEOUT_MS, MESSAGES.timeout);
    return { dataUrl, bytes: dataUrlBytes(dataUrl) };
  } catch (err) {
    if (err instanceof PhotoRejected) throw err;
    const reason = err instanceof Error && err.message ? err.message : MESSAGES.couldNotProcess;
    try {
      const dataUrl = await readAsDataUrl(file);
      return { dataUrl, bytes: dataUrlBytes(dataUrl), fallbackReason: reason };
    } catch {
      throw new PhotoUploadFailed(mobile ? MESSAGES.uploadHintMobile : MESSAGES.uploadHintDesktop);
    }
  }
}

/** A picture file turned into a JPEG within the target (the image kept from a barcode scan). */
export async function resizePhotoFile(file: File, target: ResizeTarget): Promise<string> {
  const img = await withTimeout(loadImage(file), PROCESSING_TIMEOUT_MS, MESSAGES.timeout);
  return drawToJpeg(img, img.naturalWidth, img.naturalHeight, target);
}
