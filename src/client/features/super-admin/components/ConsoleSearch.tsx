import { SearchInput } from '@/components/SearchInput';

/**
 * The console's one search box: it searches the tab in view, on the server. What is typed is
 * committed to the URL once typing pauses, so each keystroke does not ask the server.
 */
export function ConsoleSearch({ value, onCommit }: { value: string; onCommit: (search: string) => void }) {
  return (
    <SearchInput
      role="search"
      className="relative w-full sm:max-w-md"
      aria-label="Search organizations, users, or domains"
      placeholder="Search organizations, users, or domains..."
      maxLength={200}
      value={value}
      onCommit={onCommit}
    />
  );
}
