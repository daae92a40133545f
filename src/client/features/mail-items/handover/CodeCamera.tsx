import { isPickupCode, normalisePickupCode } from '@contract';
import { Camera, CameraOff, ImageUp, Loader2, ShieldAlert, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { Button } from '@/components/ui/button';
import { loadBarcodeDetector, type BarcodeSource } from '../intake/barcode/decodeBarcode';

/** How often a frame is read: four a second finds a held-up phone at once and leaves the CPU idle. */
const READ_EVERY_MS = 250;

type CameraState =
  /** getUserMedia asked; the browser may be showing its permission prompt. */
  | 'asking'
  | 'reading'
  | 'denied'
  | 'no-camera'
  /** No getUserMedia (an old browser, a page not served over HTTPS): a photo instead. */
  | 'unsupported'
  /** The QR reader (WebAssembly) did not load. */
  | 'reader-failed';

const cameraSupported = () => typeof navigator !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia);

/** The pickup code among the codes read, if any: the recipient's QR holds it as K7M-4PX (decision 031). */
async function readPickupCode(source: BarcodeSource): Promise<{ code: string | null; sawOther: boolean }> {
  const reader = await loadBarcodeDetector();
  const found = await reader.detect(source);
  for (const barcode of found) {
    const code = normalisePickupCode(barcode.rawValue);
    if (isPickupCode(code)) return { code, sawOther: false };
  }
  return { code: null, sawOther: found.length > 0 };
}

const NOT_A_CODE = 'That code is not a pickup code. Ask for the QR in the arrival email or on the recipient’s page.';

/** Without a live camera: a photo of the recipient's QR, read once. */
function PhotoFallback({ onCode, intro }: { onCode: (code: string) => void; intro: string }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const { code, sawOther } = await readPickupCode(file);
      if (code) onCode(code);
      else setError(sawOther ? NOT_A_CODE : 'No QR code was found in the picture. Try again closer, or type the code.');
    } catch {
      setError('The picture could not be read. Try another, or type the code.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="space-y-2">
      <p className="text-sm text-fg-muted">{intro}</p>
      <label
        htmlFor={id}
        className="flex cursor-pointer items-center justify-center gap-2 rounded-lg border-2 border-dashed border-line-strong px-4 py-4 text-sm font-medium text-fg-secondary hover:border-indigo-400 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500/30"
      >
        {busy ? <Loader2 aria-hidden className="size-5 animate-spin" /> : <ImageUp aria-hidden className="size-5" />}
        {busy ? 'Reading…' : 'Take a photo of the QR code'}
        <input
          id={id}
          type="file"
          accept="image/*"
          capture="environment"
          className="sr-only"
          disabled={busy}
          onChange={(event) => void onChange(event)}
        />
      </label>
      {error && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The hand-over search's camera: the rear camera, a QR read every few frames, and the first valid
 * pickup code ends it (the stream stops at once). Typing keeps working whatever happens here.
 */
export function CodeCamera({ onCode, onClose }: { onCode: (code: string) => void; onClose: () => void }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<CameraState>(() => (cameraSupported() ? 'asking' : 'unsupported'));
  const [hint, setHint] = useState<string | null>(null);
  const done = useRef(onCode);
  useEffect(() => {
    done.current = onCode;
  });

  useEffect(() => {
    if (!cameraSupported()) return;
    let stream: MediaStream | null = null;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };

    const read = async () => {
      const video = videoRef.current;
      if (stopped || !video) return;
      try {
        if (video.readyState >= 2) {
          const { code, sawOther } = await readPickupCode(video);
          if (stopped) return;
          if (code) {
            stop();
            done.current(code);
            return;
          }
          setHint(sawOther ? NOT_A_CODE : null);
        }
      } catch {
        // a frame that cannot be read: the next one may be
      }
      if (!stopped) timer = setTimeout(() => void read(), READ_EVERY_MS);
    };

    // the reader loads while the browser asks for the camera
    const reader = loadBarcodeDetector();
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false })
      .then(async (media) => {
        stream = media;
        if (stopped) return stop();
        const video = videoRef.current;
        if (!video) return;
        video.srcObject = media;
        await video.play().catch(() => undefined);
        await reader;
        if (stopped) return;
        setState('reading');
        timer = setTimeout(() => void read(), READ_EVERY_MS);
      })
      .catch((err: unknown) => {
        if (stopped) return;
        const name = err instanceof DOMException ? err.name : '';
        if (name === 'NotAllowedError' || name === 'SecurityError') setState('denied');
        else if (stream) {
          stream.getTracks().forEach((track) => track.stop());
          setState('reader-failed');
        } else setState('no-camera');
      });
    return stop;
  }, []);

  const live = state === 'asking' || state === 'reading';
  return (
    <div className="space-y-3 rounded-lg border border-line bg-surface-subtle p-3" data-camera-state={state}>
      <div className="flex items-center justify-between gap-2">
        <p className="flex min-w-0 items-center gap-2 text-sm font-medium text-fg-secondary">
          <Camera aria-hidden className="size-4 shrink-0" /> Recipient’s QR code
        </p>
        <Button variant="ghost" size="sm" onClick={onClose}>
          {/* nothing to stop once the camera is refused or missing: the panel just closes */}
          <X aria-hidden /> {live ? 'Stop camera' : 'Close'}
        </Button>
      </div>
      {live && (
        <div className="relative mx-auto aspect-[4/3] w-full max-w-sm overflow-hidden rounded-lg bg-slate-900">
          <video ref={videoRef} muted playsInline aria-label="Camera view" className="h-full w-full object-cover" />
          {/* the frame to hold the code in */}
          <span
            aria-hidden
            className="pointer-events-none absolute inset-[18%] rounded-xl border-2 border-white/80 shadow-[0_0_0_999px_rgba(15,23,42,0.35)]"
          />
          <span
            role="status"
            className="absolute inset-x-0 bottom-0 bg-slate-900/70 px-3 py-1.5 text-center text-xs text-white"
          >
            {state === 'asking'
              ? 'Starting the camera… allow it if your browser asks.'
              : 'Hold the QR code inside the frame'}
          </span>
        </div>
      )}
      {live && hint && (
        <p role="alert" className="text-sm text-amber-700 dark:text-amber-300">
          {hint}
        </p>
      )}
      {state === 'denied' && (
        <p role="alert" className="flex items-start gap-2 text-sm text-fg-muted">
          <ShieldAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" />
          The camera is blocked for this site. Allow it in the browser’s site settings, or type the code above.
        </p>
      )}
      {state === 'no-camera' && (
        <p role="alert" className="flex items-start gap-2 text-sm text-fg-muted">
          <CameraOff aria-hidden className="mt-0.5 size-4 shrink-0" />
          No camera was found on this device. Type the code above, or use a USB scanner.
        </p>
      )}
      {state === 'reader-failed' && (
        <p role="alert" className="text-sm text-fg-muted">
          The QR reader could not start. Type the code above, or try again later.
        </p>
      )}
      {state === 'unsupported' && (
        <PhotoFallback
          onCode={onCode}
          intro="This browser cannot show a live camera here. Take a photo of the QR code instead; it is read on this device."
        />
      )}
    </div>
  );
}
