import { Camera, ImageUp, Loader2, ScanBarcode, Trash2, type LucideIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/cn';
import { decodeScan, loadBarcodeDetector, type ScannedCode } from '../barcode/decodeBarcode';
import { isMobileDevice } from '../device';
import { ACCEPT_ATTRIBUTE, BARCODE_CAPTURE_TARGET, CAMERA_CAPTURE_TARGET, MESSAGES } from '../photo/photoRules';
import {
  PhotoRejected,
  PhotoUploadFailed,
  captureFullFrame,
  captureVideoFrame,
  processPhotoFile,
  resizePhotoFile,
  validatePhotoFile,
} from '../photo/processPhoto';
import { useCamera } from './useCamera';

/** Spec §4 "Photo mode": upload is the default. */
export type PhotoMode = 'upload' | 'camera' | 'barcode';

const MODES: { value: PhotoMode; label: string; icon: LucideIcon }[] = [
  { value: 'upload', label: 'Upload File', icon: ImageUp },
  { value: 'camera', label: 'Take Photo', icon: Camera },
  { value: 'barcode', label: 'Scan Barcode', icon: ScanBarcode },
];

const SCAN_INTERVAL_MS = 250;

interface PhotoCaptureProps {
  /** The photo as a data URL (what is sent as photoData), or null. */
  photo: string | null;
  /** `original`: the file as chosen, at full size, for the label reader (the photo kept is resized). */
  onPhotoChange: (dataUrl: string | null, original?: Blob) => void;
  /**
   * A code was read: a parcel's tracking number, or one of our shelf labels (or slips). Answers the
   * sentence shown under the camera ("Storage: Shelf A").
   */
  onBarcode: (scan: ScannedCode) => string;
  required?: boolean;
  error?: string;
  /** Changes when an item has been logged: a finished barcode scan starts over for the next package. */
  nextPackage?: number;
}

/** Shows a failed photo as the spec's toasts; returns the inline message, if any. */
function reportPhotoError(err: unknown, mobile: boolean): string {
  if (err instanceof PhotoRejected) {
    toast({ title: 'Invalid image', description: err.message, variant: 'destructive' });
    return err.message;
  }
  if (err instanceof PhotoUploadFailed) {
    toast({ title: err.message, description: err.hint, variant: 'destructive' });
    return `${err.message}. ${err.hint}.`;
  }
  const hint = mobile ? MESSAGES.uploadHintMobile : MESSAGES.uploadHintDesktop;
  toast({ title: MESSAGES.uploadFailed, description: hint, variant: 'destructive' });
  return `${MESSAGES.uploadFailed}. ${hint}.`;
}

/** A file picker styled as a drop target; `capture` opens the device camera on phones (spec §8 fallback). */
function FilePicker({
  label,
  hint,
  capture,
  busy,
  onFile,
}: {
  label: string;
  hint: string;
  capture?: boolean;
  busy: boolean;
  onFile: (file: File) => void;
}) {
  const id = useId();
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) onFile(file);
  };
  return (
    <label
      htmlFor={id}
      className={cn(
        'flex cursor-pointer flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed border-line-strong px-4 py-5 text-center transition-colors',
        'hover:border-indigo-400 hover:bg-indigo-50/40 dark:hover:bg-indigo-950/40 has-[:focus-visible]:border-indigo-500 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500/30',
      )}
    >
      {busy ? (
        <Loader2 aria-hidden className="size-6 animate-spin text-indigo-600 dark:text-indigo-400" />
      ) : (
        <ImageUp aria-hidden className="size-6 text-fg-faint" />
      )}
      <span className="text-sm font-medium text-fg-secondary">{busy ? 'Processing…' : label}</span>
      <span className="text-xs text-fg-subtle">{hint}</span>
      <input
        id={id}
        type="file"
        aria-label={label}
        accept={ACCEPT_ATTRIBUTE}
        capture={capture ? 'environment' : undefined}
        className="sr-only"
        disabled={busy}
        onChange={onChange}
      />
    </label>
  );
}

function UploadPane({
  onPhotoChange,
  capture,
}: {
  onPhotoChange: (dataUrl: string, original?: Blob) => void;
  capture?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mobile = isMobileDevice();

  const onFile = async (file: File) => {
    setBusy(true);
    setError(null);
    try {
      const result = await processPhotoFile(file, mobile);
      if (result.fallbackReason) {
        toast({ title: 'Photo added without optimizing', description: result.fallbackReason });
      }
      onPhotoChange(result.dataUrl, file);
    } catch (err) {
      setError(reportPhotoError(err, mobile));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="space-y-2">
      <FilePicker
        label="Choose a photo"
        hint={`JPEG, PNG, WebP or GIF, up to ${mobile ? '5' : '10'} MB`}
        capture={capture}
        busy={busy}
        onFile={(file) => void onFile(file)}
      />
      {error && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

function CameraUnavailable({ children }: { children: string }) {
  return <p className="text-sm text-fg-muted">{children}</p>;
}

function CameraPane({ onPhotoChange }: { onPhotoChange: (dataUrl: string, original?: Blob) => void }) {
  // A photo is read for its label's print: the camera's full resolution, not the barcode pane's 1280.
  const { videoRef, status } = useCamera(1920);

  if (status === 'unavailable') {
    return (
      <div className="space-y-2">
        <CameraUnavailable>
          No camera is available here. Take or choose a picture with your device instead.
        </CameraUnavailable>
        <UploadPane onPhotoChange={onPhotoChange} capture={isMobileDevice()} />
      </div>
    );
  }

  const capture = async () => {
    const video = videoRef.current;
    if (!video) return;
    try {
      const photo = captureVideoFrame(video, CAMERA_CAPTURE_TARGET);
      // The frame at full size too, for the label reader (the photo kept is 600x450).
      onPhotoChange(photo, await captureFullFrame(video).catch(() => undefined));
    } catch (err) {
      toast({
        title: 'Error',
        description: err instanceof Error ? err.message : MESSAGES.couldNotProcess,
        variant: 'destructive',
      });
    }
  };

  return (
    <div className="space-y-2">
      <div className="relative overflow-hidden rounded-lg bg-slate-900">
        <video ref={videoRef} muted playsInline className="h-56 w-full object-cover sm:h-64" />
        {status === 'starting' && (
          <span className="absolute inset-0 flex items-center justify-center text-sm text-white/80">
            Starting camera…
          </span>
        )}
      </div>
      <Button
        type="button"
        variant="outline"
        className="w-full"
        disabled={status !== 'ready'}
        onClick={() => void capture()}
      >
        <Camera aria-hidden />
        Capture Photo
      </Button>
    </div>
  );
}

type ScanState =
  { kind: 'loading' } | { kind: 'scanning' } | { kind: 'found'; code: string; said: string } | { kind: 'failed' };

const scanKey = (scan: ScannedCode) =>
  scan.kind === 'tracking' ? scan.trackingNumber : scan.kind === 'location' ? scan.locationId : scan.itemId;

/** Decodes the label's barcode from the live camera (or, without one, from a picture of it). */
function BarcodePane({
  onPhotoChange,
  onBarcode,
  nextPackage,
}: {
  onPhotoChange: (dataUrl: string) => void;
  onBarcode: (scan: ScannedCode) => string;
  nextPackage: number;
}) {
  const { videoRef, status } = useCamera();
  const [scan, setScan] = useState<ScanState>({ kind: 'loading' });
  /** The code read last: the same label still in front of the camera is not read twice. */
  const lastCode = useRef<string | null>(null);
  const [packageSeen, setPackageSeen] = useState(nextPackage);
  if (packageSeen !== nextPackage) {
    setPackageSeen(nextPackage);
    if (scan.kind === 'found') setScan({ kind: 'scanning' });
  }
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** What a shelf label (or slip) read said: scanning goes on for the parcel's own barcode. */
  const [note, setNote] = useState<string | null>(null);
  const mobile = isMobileDevice();
  const callbacks = useRef({ onPhotoChange, onBarcode });
  useEffect(() => {
    callbacks.current = { onPhotoChange, onBarcode };
  });

  useEffect(() => {
    let cancelled = false;
    loadBarcodeDetector().then(
      () => !cancelled && setScan((s) => (s.kind === 'loading' ? { kind: 'scanning' } : s)),
      () => !cancelled && setScan({ kind: 'failed' }),
    );
    return () => {
      cancelled = true;
    };
  }, []);

  const scanning = status === 'ready' && scan.kind === 'scanning';
  useEffect(() => {
    if (!scanning) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      const video = videoRef.current;
      if (stopped || !video) return;
      try {
        if (video.readyState >= 2) {
          const read = await decodeScan(video);
          if (read && scanKey(read) !== lastCode.current && !stopped) {
            lastCode.current = scanKey(read);
            if (read.kind !== 'tracking') {
              // a shelf label chooses the storage; the parcel's barcode is still to come
              setNote(callbacks.current.onBarcode(read));
            } else {
              callbacks.current.onPhotoChange(captureVideoFrame(video, BARCODE_CAPTURE_TARGET));
              const said = callbacks.current.onBarcode(read);
              setScan({ kind: 'found', code: read.trackingNumber, said });
              return;
            }
          }
        }
      } catch {
        // a frame that cannot be read: try the next one
      }
      if (!stopped) timer = setTimeout(() => void tick(), SCAN_INTERVAL_MS);
    };
    timer = setTimeout(() => void tick(), SCAN_INTERVAL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [scanning, videoRef]);

  const onFile = async (file: File) => {
    const invalid = validatePhotoFile(file, mobile);
    if (invalid) {
      setError(reportPhotoError(new PhotoRejected(invalid), mobile));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const read = await decodeScan(file);
      if (!read) {
        setError('No barcode found in the picture. Try again closer, or type the tracking number.');
        return;
      }
      if (read.kind !== 'tracking') {
        setNote(onBarcode(read));
        return;
      }
      try {
        onPhotoChange(await resizePhotoFile(file, BARCODE_CAPTURE_TARGET));
      } catch {
        // the code was read; the picture is optional
      }
      setScan({ kind: 'found', code: read.trackingNumber, said: onBarcode(read) });
    } catch {
      setError('The barcode could not be read. Try another picture, or type the tracking number.');
    } finally {
      setBusy(false);
    }
  };

  const found = (scan.kind === 'found' || note) && (
    <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
      {scan.kind === 'found' ? scan.said : note}
    </p>
  );

  if (status === 'unavailable' || scan.kind === 'failed') {
    return (
      <div className="space-y-2">
        <CameraUnavailable>
          {scan.kind === 'failed'
            ? 'The barcode reader could not start. Type the tracking number, or try again later.'
            : 'No camera is available here. Take or choose a picture of the label and the barcode is read from it.'}
        </CameraUnavailable>
        {scan.kind !== 'failed' && (
          <FilePicker
            label="Choose a picture of the label"
            hint="The barcode is read in your browser"
            capture={mobile}
            busy={busy}
            onFile={(file) => void onFile(file)}
          />
        )}
        {found}
        {error && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
      </div>
    );
  }

  return (
    <div className="space-y-2">
      <div className="relative overflow-hidden rounded-lg bg-slate-900">
        <video ref={videoRef} muted playsInline className="h-56 w-full object-cover sm:h-64" />
        <span
          aria-hidden
          className="pointer-events-none absolute inset-x-8 top-1/2 h-0.5 -translate-y-1/2 bg-red-500/80"
        />
        <span className="absolute inset-x-0 bottom-0 bg-slate-900/60 px-3 py-1.5 text-center text-xs text-white">
          {status === 'starting' || scan.kind === 'loading'
            ? 'Starting scanner…'
            : scan.kind === 'found'
              ? 'Barcode read'
              : 'Point the camera at the barcode'}
        </span>
      </div>
      {found}
      {scan.kind === 'found' && (
        <Button
          type="button"
          variant="outline"
          className="w-full"
          onClick={() => {
            lastCode.current = null;
            setScan({ kind: 'scanning' });
          }}
        >
          <ScanBarcode aria-hidden />
          Scan Another
        </Button>
      )}
    </div>
  );
}

function PhotoPreview({ photo, onRemove }: { photo: string; onRemove: () => void }) {
  return (
    <div className="flex items-center gap-3 rounded-lg border border-line bg-surface-subtle p-2">
      <img src={photo} alt="Package photo preview" className="size-16 shrink-0 rounded-md object-cover" />
      <p className="min-w-0 flex-1 text-sm text-fg-muted">Photo attached</p>
      <Button type="button" variant="ghost" size="sm" onClick={onRemove}>
        <Trash2 aria-hidden />
        Remove Photo
      </Button>
    </div>
  );
}

/** Spec §2: the package photo or barcode, by camera, barcode scan or file upload (the default). */
export function PhotoCapture({ photo, onPhotoChange, onBarcode, required, error, nextPackage = 0 }: PhotoCaptureProps) {
  const [mode, setMode] = useState<PhotoMode>('upload');
  const labelId = useId();

  return (
    <div role="group" aria-labelledby={labelId} className="space-y-2">
      <p id={labelId} className="text-sm font-medium text-fg-secondary">
        Package Photo or Barcode
        {!required && <span className="ml-1 font-normal text-fg-subtle">(optional)</span>}
      </p>
      <Tabs value={mode} onValueChange={(value) => setMode(value as PhotoMode)}>
        <TabsList className="grid w-full grid-cols-3">
          {MODES.map(({ value, label, icon: Icon }) => (
            <TabsTrigger key={value} value={value} className="px-2 text-xs sm:text-sm">
              <Icon aria-hidden className="hidden sm:block" />
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="upload" className="mt-2">
          <UploadPane onPhotoChange={onPhotoChange} />
        </TabsContent>
        <TabsContent value="camera" className="mt-2">
          <CameraPane onPhotoChange={onPhotoChange} />
        </TabsContent>
        <TabsContent value="barcode" className="mt-2">
          <BarcodePane onPhotoChange={onPhotoChange} onBarcode={onBarcode} nextPackage={nextPackage} />
        </TabsContent>
      </Tabs>
      {photo && <PhotoPreview photo={photo} onRemove={() => onPhotoChange(null)} />}
      {error && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
