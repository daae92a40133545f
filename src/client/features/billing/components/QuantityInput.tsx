import { Minus, Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { WholeNumberInput } from '@/components/WholeNumberInput';
import { cn } from '@/lib/cn';

interface QuantityInputProps {
  id: string;
  /** The typed text: kept as typed so a half-edited number is not rewritten under the cursor. */
  value: string;
  onChange: (value: string) => void;
  min: number;
  max: number;
  /** What one step counts, for the buttons' names: "users", "licences". */
  unit: string;
  invalid?: boolean;
  describedBy?: string;
  /** Names the field when no visible label points at `id`. */
  ariaLabel?: string;
  className?: string;
}

/** A whole number with − and + beside it, bounded by the input's own min and max (spec §5). */
export function QuantityInput({
  id,
  value,
  onChange,
  min,
  max,
  unit,
  invalid,
  describedBy,
  ariaLabel,
  className,
}: QuantityInputProps) {
  const current = Number.parseInt(value, 10);
  const step = (delta: number) => {
    const base = Number.isFinite(current) ? current : min;
    onChange(String(Math.min(max, Math.max(min, base + delta))));
  };
  return (
    <div className={cn('flex items-stretch gap-1.5', className)}>
      <Button
        variant="outline"
        className="size-10 px-0"
        aria-label={`Fewer ${unit}`}
        aria-controls={id}
        disabled={Number.isFinite(current) && current <= min}
        onClick={() => step(-1)}
      >
        <Minus aria-hidden />
      </Button>
      <WholeNumberInput
        id={id}
        min={min}
        max={max}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        aria-label={ariaLabel}
        className="w-20 text-center text-base font-semibold tabular-nums [appearance:textfield] [&::-webkit-inner-spin-button]:appearance-none [&::-webkit-outer-spin-button]:appearance-none"
      />
      <Button
        variant="outline"
        className="size-10 px-0"
        aria-label={`More ${unit}`}
        aria-controls={id}
        disabled={Number.isFinite(current) && current >= max}
        onClick={() => step(1)}
      >
        <Plus aria-hidden />
      </Button>
    </div>
  );
}
