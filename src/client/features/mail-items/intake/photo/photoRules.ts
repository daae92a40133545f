/** Spec §5 and §9: what the browser accepts and how it shrinks photos before sending them. */

export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const ACCEPT_ATTRIBUTE = ACCEPTED_IMAGE_TYPES.join(',');

const MB = 1024 * 1024;

export interface ResizeTarget {
  width: number;
  height: number;
  quality: number;
}

export interface DeviceRules {
  label: 'desktop' | 'mobile';
  maxBytes: number;
  maxPixels: number;
  /** The first pass of the generic resize. */
  resize: ResizeTarget;
  /** A result larger than this is compressed again at `recompressQuality`. */
  recompressAbove: number;
  recompressQuality: number;
}

export const DESKTOP_RULES: DeviceRules = {
  label: 'desktop',
  maxBytes: 10 * MB,
  maxPixels: 2_000_000,
  resize: { width: 800, height: 600, quality: 0.8 },
  recompressAbove: 5 * MB,
  recompressQuality: 0.6,
};

export const MOBILE_RULES: DeviceRules = {
  label: 'mobile',
  maxBytes: 5 * MB,
  maxPixels: 1_000_000,
  resize: { width: 600, height: 450, quality: 0.7 },
  recompressAbove: 2 * MB,
  recompressQuality: 0.5,
};

/** Mobile uploads at or below this size are sent as they are. */
export const MOBILE_SKIP_COMPRESSION_BYTES = 500 * 1024;
/** Larger mobile uploads: longest edge at most 800 px, JPEG quality 0.6. */
export const MOBILE_UPLOAD_TARGET: ResizeTarget = { width: 800, height: 800, quality: 0.6 };
/** A frame taken with the camera. */
export const CAMERA_CAPTURE_TARGET: ResizeTarget = { width: 600, height: 450, quality: 0.7 };
/** The picture kept from a barcode scan. */
export const BARCODE_CAPTURE_TARGET: ResizeTarget = { width: 800, height: 600, quality: 0.8 };

export const PROCESSING_TIMEOUT_MS = 10_000;

export const MESSAGES = {
  invalidType: 'Please select a valid image file (JPEG, PNG, WebP, or GIF)',
  // Spec §5 gives this one text for both limits (2,000,000 pixels on a desktop, 1,000,000 on a phone).
  tooManyPixels: 'Image too large for mobile device - please select a smaller image',
  couldNotProcess: 'Could not process the image. Please try again.',
  timeout: 'Image processing timeout - please try a smaller image',
  loadFailed: 'Failed to load image',
  readFailed: 'Failed to read file',
  noCanvas: 'Could not get canvas context',
  cannotOptimize: 'Image too large and cannot be optimized',
  uploadFailed: 'Upload failed',
  uploadHintMobile: 'Try a smaller image or use camera instead',
  uploadHintDesktop: 'Please try a different image',
} as const;

export function rulesFor(mobile: boolean): DeviceRules {
  return mobile ? MOBILE_RULES : DESKTOP_RULES;
}

/** "4.2 MB", "850 KB". */
export function formatBytes(bytes: number): string {
  if (bytes >= MB) return `${(bytes / MB).toFixed(1).replace(/\.0$/, '')} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function fileTooLargeMessage(bytes: number, rules: DeviceRules): string {
  return `File size (${formatBytes(bytes)}) exceeds the ${rules.label} limit of ${formatBytes(rules.maxBytes)}. Try using a smaller image.`;
}

/** The decoded size of a base64 data URL. */
export function dataUrlBytes(dataUrl: string): number {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}
