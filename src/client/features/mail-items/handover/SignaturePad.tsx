import { SIGNATURE_MAX_HEIGHT, SIGNATURE_MAX_WIDTH, SIGNATURE_PAD_MAX_DENSITY } from '@contract';
import { Eraser } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type PointerEvent } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';

interface SignaturePadProps {
  /** A PNG data URL of what was drawn, or null once cleared (or before anything is drawn). */
  onChange: (png: string | null) => void;
  invalid?: boolean;
  describedBy?: string;
  id?: string;
}

const HEIGHT = 160;

/**
 * A strip to sign on with a finger, a pen or a mouse (pointer events cover all three). The ink
 * is black on a white pad in either theme, as it is printed on the receipt; the image is sent as
 * a PNG of the pad's own pixels (device pixels, so a pen's stroke stays sharp, up to a density of
 * 3: within SIGNATURE_MAX_WIDTH x SIGNATURE_MAX_HEIGHT, which the server checks).
 */
export function SignaturePad({ onChange, invalid, describedBy, id }: SignaturePadProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drawing = useRef<{ x: number; y: number } | null>(null);
  const [signed, setSigned] = useState(false);

  const context = useCallback(() => canvasRef.current?.getContext('2d') ?? null, []);

  // The canvas's pixels follow its laid-out width and the screen's density.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    // At most the density the server takes (decision 050): a zoomed-in browser reports 5 and more,
    // and the server refuses a PNG larger than a pad by its header.
    const ratio = Math.min(
      window.devicePixelRatio || 1,
      SIGNATURE_PAD_MAX_DENSITY,
      SIGNATURE_MAX_WIDTH / Math.max(1, canvas.clientWidth),
      SIGNATURE_MAX_HEIGHT / HEIGHT,
    );
    canvas.width = Math.round(canvas.clientWidth * ratio);
    canvas.height = Math.round(HEIGHT * ratio);
    const ctx = context();
    if (!ctx) return;
    ctx.scale(ratio, ratio);
    ctx.lineWidth = 2.5;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = '#111111';
  }, [context]);

  const point = (event: PointerEvent<HTMLCanvasElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };

  const start = (event: PointerEvent<HTMLCanvasElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drawing.current = point(event);
    const ctx = context();
    if (!ctx) return;
    // A tap leaves a dot.
    ctx.beginPath();
    ctx.arc(drawing.current.x, drawing.current.y, 1.2, 0, Math.PI * 2);
    ctx.fillStyle = '#111111';
    ctx.fill();
  };

  const move = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    const ctx = context();
    if (!ctx) return;
    const next = point(event);
    ctx.beginPath();
    ctx.moveTo(drawing.current.x, drawing.current.y);
    ctx.lineTo(next.x, next.y);
    ctx.stroke();
    drawing.current = next;
  };

  const end = () => {
    if (!drawing.current) return;
    drawing.current = null;
    setSigned(true);
    onChange(canvasRef.current?.toDataURL('image/png') ?? null);
  };

  const clear = () => {
    const canvas = canvasRef.current;
    context()?.clearRect(0, 0, canvas?.width ?? 0, canvas?.height ?? 0);
    setSigned(false);
    onChange(null);
  };

  return (
    <div className="space-y-2">
      <div className="relative">
        <canvas
          ref={canvasRef}
          id={id}
          role="img"
          aria-label={signed ? 'Signature, drawn' : 'Signature pad: sign here with a finger, pen or mouse'}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          tabIndex={0}
          style={{ height: HEIGHT }}
          className={cn(
            'block w-full touch-none rounded-md border-2 border-dashed bg-white',
            invalid ? 'border-red-500' : 'border-line-strong',
            'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/40',
          )}
          onPointerDown={start}
          onPointerMove={move}
          onPointerUp={end}
          onPointerCancel={end}
        />
        {!signed && (
          <span className="pointer-events-none absolute inset-x-0 bottom-3 text-center text-sm text-neutral-500">
            Sign here
          </span>
        )}
      </div>
      <Button type="button" variant="outline" size="sm" onClick={clear} disabled={!signed}>
        <Eraser aria-hidden /> Clear
      </Button>
    </div>
  );
}
