import { buttonClass } from '../styles';

interface PricesLoadFailedProps {
  /** "The plans could not be loaded just now." */
  message: string;
  /** Sized as what it stands in for, so nothing below moves. */
  className: string;
  onRetry: () => void;
}

/** The plans did not load: say so where they would be, with Try again. */
export function PricesLoadFailed({ message, className, onRetry }: PricesLoadFailedProps) {
  return (
    <div role="alert" className={className}>
      <p className="text-slate-600">{message}</p>
      <button type="button" className={buttonClass('outline')} onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
