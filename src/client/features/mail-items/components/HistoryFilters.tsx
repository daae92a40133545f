import { NEEDS_RECIPIENT } from '@contract';
import { useId } from 'react';
import { SearchInput } from '@/components/SearchInput';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useOrganizationSettings } from '@/lib/resources/organizationSettings';
import { packageTypes, statuses, typeLabel } from '../mailItemFormat';
import type { HistoryFilterParams, HistoryRange } from '../api/history';
import { OptionItems } from './MailItemFields';

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
          <OptionItems options={options} />
        </SelectContent>
      </Select>
    </div>
  );
}

/** The org's list plus the current value when the URL names one it no longer has. */
function withCurrent(values: string[], current: string | undefined) {
  return current && !values.includes(current) ? [...values, current] : values;
}

/** Tracking number, sender or recipient name, searched on the server once typing pauses. */
function SearchBox({ value, onCommit }: { value: string; onCommit: (search: string) => void }) {
  const id = useId();
  return (
    <div className="min-w-0 space-y-1.5">
      <Label htmlFor={id}>Search</Label>
      <SearchInput
        className="relative"
        id={id}
        placeholder="Tracking, sender or name"
        value={value}
        onCommit={onCommit}
      />
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
  // items logged without a recipient (decision 041) have a status of their own, outside the list
  const statusList = withCurrent([...statuses(settings.data), NEEDS_RECIPIENT], filter.status);

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
