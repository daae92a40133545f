import { Search, X } from 'lucide-react';
import { useEffect, useRef, useState, type ComponentProps } from 'react';
import { Input } from '@/components/ui/input';

/** How long typing must pause before the search is committed. */
export const SEARCH_DELAY_MS = 300;

type SearchInputProps = Pick<ComponentProps<typeof Input>, 'id' | 'placeholder' | 'maxLength' | 'aria-label'> & {
  /** The committed search (from the URL). */
  value: string;
  /** Called with the trimmed text once typing pauses, at once when cleared. */
  onCommit: (search: string) => void;
  /** The box around the input, its icon and its clear button. */
  className: string;
  role?: 'search';
};

/**
 * A search box whose text is committed (to the URL, so the server is asked) once typing pauses,
 * so each keystroke does not ask the server; History and the super admin console.
 */
export function SearchInput({ value, onCommit, className, role, ...input }: SearchInputProps) {
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // the URL changed by itself (back, forward, a shared link): show its search
  if (seen !== value) {
    setSeen(value);
    if (text.trim() !== value) setText(value);
  }
  useEffect(() => () => clearTimeout(timer.current), []);

  const change = (next: string, delay = SEARCH_DELAY_MS) => {
    setText(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onCommit(next.trim()), delay);
  };

  return (
    <div role={role} className={className}>
      <Search
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-fg-faint"
      />
      <Input
        {...input}
        type="search"
        className="pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden"
        value={text}
        onChange={(event) => change(event.target.value)}
      />
      {text && (
        <button
          type="button"
          aria-label="Clear search"
          onClick={() => change('', 0)}
          className="absolute top-1/2 right-2 -translate-y-1/2 rounded p-1 text-fg-faint hover:text-fg-secondary focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none"
        >
          <X aria-hidden className="size-4" />
        </button>
      )}
    </div>
  );
}
