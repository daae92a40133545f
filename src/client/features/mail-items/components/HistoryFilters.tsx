import { Search, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useOrganizationSettings } from '@/lib/resources/organizationSettings';
import { packageTypes, statuses, typeLabel } from '../mailItemFormat';
import type { HistoryFilterParams, HistoryRange } from '../api/history';

export const SEARCH_DELAY_MS = 300;

/** Spec §9 "History ranges". */
const RANGE_OPTIONS: { value: HistoryRange; label: string }[] = [
  { value: '1', label: 'Today' },
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: '0', label: 'All time' },
];

/** A Radix select item cannot have an empty value. */
const ALL = '__all__';

interface FilterSelectProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
}

function FilterSelect({ label, value, onChange, options }: FilterSelectProps) {
  const id = useId();
  return (
    <div className="min-w-0 space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger id={id}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {options.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

/** The org's list plus the current value when the URL names one it no longer has. */
function withCurrent(values: string[], current: string | undefined) {
  return current && !values.includes(current) ? [...values, current] : values;
}

function SearchBox({ value, onCommit }: { value: string; onCommit: (search: string) => void }) {
  const id = useId();
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
    <div className="min-w-0 space-y-1.5">
      <Label htmlFor={id}>Search</Label>
      <div className="relative">
        <Search
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-fg-faint"
        />
        <Input
          id={id}
          type="search"
          placeholder="Tracking, sender or name"
          value={text}
          onChange={(event) => change(event.target.value)}
          className="pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden"
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
    </div>
  );
}

interface HistoryFiltersProps {
  organizationId: string;
  filter: HistoryFilterParams;
  onChange: (change: { range?: HistoryRange; type?: string; status?: string }) => void;
  onSearch: (search: string) => void;
}

/** Date range, type, status and free-text search; stacked on phones. */
export function HistoryFilters({ organizationId, filter, onChange, onSearch }: HistoryFiltersProps) {
  const settings = useOrganizationSettings(organizationId);
  const types = withCurrent(packageTypes(settings.data), filter.type);
  const statusList = withCurrent(statuses(settings.data), filter.status);

  return (
    <div className="grid gap-3 sm:grid-cols-3 lg:grid-cols-[repeat(3,minmax(0,12rem))_minmax(0,1fr)]">
      <FilterSelect
        label="Date Range"
        value={filter.range}
        onChange={(range) => onChange({ range: range as HistoryRange })}
        options={RANGE_OPTIONS}
      />
      <FilterSelect
        label="Type"
        value={filter.type ?? ALL}
        onChange={(type) => onChange({ type: type === ALL ? '' : type })}
        options={[{ value: ALL, label: 'All types' }, ...types.map((t) => ({ value: t, label: typeLabel(t) }))]}
      />
      <FilterSelect
        label="Status"
        value={filter.status ?? ALL}
        onChange={(status) => onChange({ status: status === ALL ? '' : status })}
        options={[{ value: ALL, label: 'All statuses' }, ...statusList.map((s) => ({ value: s, label: typeLabel(s) }))]}
      />
      <div className="sm:col-span-3 lg:col-span-1">
        <SearchBox value={filter.search ?? ''} onCommit={onSearch} />
      </div>
    </div>
  );
}
