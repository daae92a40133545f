import { Search, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Input } from '@/components/ui/input';

export const SEARCH_DELAY_MS = 300;

/**
 * The console's one search box: it searches the tab in view, on the server. What is typed is
 * committed to the URL once typing pauses, so each keystroke does not ask the server.
 */
export function ConsoleSearch({ value, onCommit }: { value: string; onCommit: (search: string) => void }) {
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
    <div role="search" className="relative w-full sm:max-w-md">
      <Search
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-fg-faint"
      />
      <Input
        type="search"
        aria-label="Search organizations, users, or domains"
        placeholder="Search organizations, users, or domains..."
        className="pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden"
        value={text}
        maxLength={200}
        onChange={(e) => change(e.target.value)}
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
