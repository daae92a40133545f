import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Recipient } from '@contract';
import { Check, ChevronsUpDown, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { ApiError } from '@/lib/api';
import { recipientsQuery } from '@/lib/resources/recipients';
import { cn } from '@/lib/cn';

/** What the picker needs of a recipient (a Recipient or a mail item's nested recipient). */
export type RecipientChoice = Pick<Recipient, 'id' | 'firstName' | 'lastName' | 'unit' | 'email' | 'department'>;

/** Up to this many active recipients are loaded once and filtered as you type; beyond it the server searches. */
const PRELOAD_LIMIT = 500;
const MAX_OPTIONS = 8;

/**
 * For a dialog's onEscapeKeyDown: while a recipient list is open, Escape closes the list (the
 * combobox handles it) instead of the dialog.
 */
export function keepDialogOpenWhileListOpen(event: { preventDefault: () => void }) {
  const active = document.activeElement;
  if (active?.getAttribute('role') === 'combobox' && active.getAttribute('aria-expanded') === 'true') {
    event.preventDefault();
  }
}

export function recipientLabel(recipient: Pick<Recipient, 'firstName' | 'lastName' | 'unit'>) {
  const name = `${recipient.firstName} ${recipient.lastName}`.trim();
  return recipient.unit ? `${name} (Unit ${recipient.unit})` : name;
}

/** Every typed word must appear in the name, email, unit or department; name and unit prefixes rank first. */
function filterRecipients(list: readonly RecipientChoice[], term: string): RecipientChoice[] {
  const words = term.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return list.slice(0, MAX_OPTIONS);
  const scored: { recipient: RecipientChoice; score: number }[] = [];
  for (const recipient of list) {
    const first = recipient.firstName.toLowerCase();
    const last = recipient.lastName.toLowerCase();
    const unit = recipient.unit?.toLowerCase() ?? '';
    const fields = [first, last, unit, recipient.email?.toLowerCase() ?? '', recipient.department?.toLowerCase() ?? ''];
    let score = 0;
    let all = true;
    for (const word of words) {
      if (first.startsWith(word) || last.startsWith(word) || unit === word) continue;
      if (fields.some((field) => field.includes(word))) score += 1;
      else {
        all = false;
        break;
      }
    }
    if (all) scored.push({ recipient, score });
  }
  return scored
    .sort((a, b) => a.score - b.score)
    .slice(0, MAX_OPTIONS)
    .map((entry) => entry.recipient);
}

interface RecipientComboboxProps {
  id: string;
  organizationId: string;
  value: RecipientChoice | null;
  /** `offered`: the clerk chose one of the `offered` recipients, from the top of the empty field's list. */
  onChange: (recipient: RecipientChoice | null, offered?: boolean) => void;
  /**
   * Recipients to offer first while nothing is typed (those who expect the tracking number,
   * decision 047): never chosen by themselves; Enter in the empty field opens the list with the
   * first highlighted, Enter again chooses it.
   */
  offered?: readonly RecipientChoice[];
  /** Enter with a recipient chosen and the list closed (the form logs the item). */
  onConfirm?: () => void;
  /** Text typed without picking anyone, so the form can refuse it. */
  onTextChange?: (text: string) => void;
  invalid?: boolean;
  describedBy?: string;
}

/**
 * Spec §2 / issue item 5: the recipient is picked by typing a few letters; ArrowDown/ArrowUp move
 * through the matches, Enter picks the highlighted one (the first by default), Escape closes the list.
 */
export function RecipientCombobox({
  id,
  organizationId,
  value,
  onChange,
  onConfirm,
  onTextChange,
  invalid,
  describedBy,
  offered = [],
}: RecipientComboboxProps) {
  const queryClient = useQueryClient();
  const listId = useId();
  /** The typed text; null shows the chosen recipient. */
  const [text, setText] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [highlight, setHighlight] = useState(0);
  const latestText = useRef('');
  /** A pick waiting for the recipient list to load (Enter pressed before it arrived). */
  const resolving = useRef(false);
  /** Enter was pressed again while that pick waited: log the item once the pick has landed. */
  const confirmAfterPick = useRef(false);

  // Runs after the parent re-rendered with the picked recipient, so its onConfirm sees it.
  useEffect(() => {
    if (value && confirmAfterPick.current) {
      confirmAfterPick.current = false;
      onConfirm?.();
    }
  }, [value, onConfirm]);

  const term = (text ?? '').trim();
  const preload = recipientsQuery(organizationId, { active: true, limit: PRELOAD_LIMIT });
  const all = useQuery(preload);
  const complete = Boolean(all.data && all.data.total <= all.data.items.length);
  const remoteQuery = recipientsQuery(organizationId, { active: true, search: term, limit: MAX_OPTIONS });
  const remote = useQuery({ ...remoteQuery, enabled: Boolean(all.data) && !complete && term.length > 0 });

  const found: RecipientChoice[] = complete
    ? filterRecipients(all.data!.items, term)
    : term
      ? (remote.data?.items ?? [])
      : (all.data?.items.slice(0, MAX_OPTIONS) ?? []);
  // Nothing typed: the offered ones first (they expect the number), then the rest as ever.
  const offering = term === '' ? offered : [];
  const isOffered = (r: RecipientChoice) => offering.some((o) => o.id === r.id);
  const matches: RecipientChoice[] =
    offering.length > 0 ? [...offering, ...found.filter((r) => !isOffered(r))].slice(0, MAX_OPTIONS) : found;
  const active = Math.min(highlight, Math.max(0, matches.length - 1));
  const optionId = (index: number) => `${listId}-option-${index}`;
  const loading = complete ? false : term ? remote.isFetching : all.isPending;
  // Offline with no recipients loaded (a reload without a network, decision 044): nobody to pick.
  // (TanStack Query starts believing it is online, so its first fetch fails rather than pauses.)
  const unavailable = !all.data && (all.fetchStatus === 'paused' || (all.isError && !(all.error instanceof ApiError)));

  const pick = (recipient: RecipientChoice) => {
    onChange(recipient, isOffered(recipient));
    setText(null);
    setOpen(false);
    setHighlight(0);
    onTextChange?.('');
  };

  /** The matches for the text as typed, fetching them first when they are not loaded yet. */
  const resolveMatches = async (typed: string): Promise<RecipientChoice[]> => {
    const list = await queryClient.ensureQueryData(preload);
    if (list.total <= list.items.length) return filterRecipients(list.items, typed);
    const found = await queryClient.ensureQueryData(
      recipientsQuery(organizationId, { active: true, search: typed, limit: MAX_OPTIONS }),
    );
    return found.items;
  };

  const onKeyDown = async (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) {
        setOpen(true);
        return;
      }
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setHighlight(matches.length ? (active + step + matches.length) % matches.length : 0);
      return;
    }
    if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
      return;
    }
    if (event.key !== 'Enter' || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    if (resolving.current) {
      // A scanner-speed clerk: the list is still loading for the letters already typed.
      confirmAfterPick.current = true;
      return;
    }
    if (text === null || term === '') {
      if (value) onConfirm?.();
      // The list is open on the offered ones: Enter chooses the highlighted one.
      else if (open && offering.length > 0 && active < offering.length) pick(matches[active]!);
      else setOpen(true);
      return;
    }
    const typed = term;
    const index = active;
    let resolved = matches;
    if (!(matches.length > 0 && !loading && complete)) {
      resolving.current = true;
      resolved = await resolveMatches(typed).catch(() => []);
      resolving.current = false;
    }
    const choice = resolved[index] ?? resolved[0];
    if (latestText.current.trim() !== typed || !choice) {
      // Typing went on meanwhile, or nobody matches: a queued Enter must not log without a recipient.
      confirmAfterPick.current = false;
      if (!choice) setOpen(true);
      return;
    }
    pick(choice);
  };

  const shown = text ?? (value ? recipientLabel(value) : '');

  return (
    <div className="relative">
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && matches.length ? optionId(active) : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        placeholder="Type a name, unit or email"
        value={shown}
        onChange={(event) => {
          const next = event.target.value;
          latestText.current = next;
          setText(next);
          setOpen(true);
          setHighlight(0);
          if (value) onChange(null);
          onTextChange?.(next);
        }}
        onKeyDown={(event) => void onKeyDown(event)}
        onFocus={(event) => event.currentTarget.select()}
        onBlur={() => setOpen(false)}
        className={cn(
          'h-10 w-full min-w-0 rounded-lg border border-line-strong bg-surface pr-16 pl-3 text-sm text-fg shadow-sm transition-colors placeholder:text-fg-faint',
          'focus-visible:border-indigo-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/30',
          'aria-[invalid=true]:border-red-500 aria-[invalid=true]:focus-visible:ring-red-500/30',
          value && text === null && 'font-medium',
        )}
      />
      <span className="absolute inset-y-0 right-2 flex items-center gap-1">
        {(value || text) && (
          <button
            type="button"
            tabIndex={-1}
            aria-label="Clear recipient"
            className="rounded p-1 text-fg-faint hover:bg-surface-muted hover:text-fg-secondary"
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => {
              latestText.current = '';
              setText(null);
              onChange(null);
              onTextChange?.('');
            }}
          >
            <X aria-hidden className="size-4" />
          </button>
        )}
        <ChevronsUpDown aria-hidden className="size-4 text-fg-faint" />
      </span>
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label="Recipients"
          className="absolute z-50 mt-1 max-h-64 w-full overflow-y-auto rounded-lg border border-line bg-surface p-1 shadow-lg"
        >
          {matches.map((recipient, index) => (
            <li
              key={recipient.id}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              className={cn(
                'flex cursor-pointer items-center gap-2 rounded-md px-2 py-2 text-sm',
                index === active
                  ? 'bg-indigo-50 dark:bg-indigo-950/40 text-indigo-900 dark:text-indigo-300'
                  : 'text-fg-secondary',
              )}
              onMouseDown={(event) => event.preventDefault()}
              onMouseEnter={() => setHighlight(index)}
              onClick={() => pick(recipient)}
            >
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium">
                  {recipient.firstName} {recipient.lastName}
                </span>
                {isOffered(recipient) ? (
                  <span className="block truncate text-xs font-medium text-emerald-800 dark:text-emerald-300">
                    {[recipient.unit && `Unit ${recipient.unit}`, 'Expects this tracking number']
                      .filter(Boolean)
                      .join(' · ')}
                  </span>
                ) : (
                  (recipient.unit || recipient.department || recipient.email) && (
                    // the highlight's tint takes fg-subtle below 4.5:1 (axe, light theme): a shade darker on it
                    <span
                      className={cn('block truncate text-xs', index === active ? 'text-fg-muted' : 'text-fg-subtle')}
                    >
                      {[recipient.unit && `Unit ${recipient.unit}`, recipient.department, recipient.email]
                        .filter(Boolean)
                        .join(' · ')}
                    </span>
                  )
                )}
              </span>
              {value?.id === recipient.id && (
                <Check aria-hidden className="size-4 text-indigo-600 dark:text-indigo-400" />
              )}
            </li>
          ))}
          {matches.length === 0 && (
            <li className="px-2 py-2 text-sm text-fg-subtle">
              {unavailable
                ? 'Recipients need the network'
                : loading
                  ? 'Searching…'
                  : term
                    ? 'No recipients match'
                    : 'No recipients yet'}
            </li>
          )}
        </ul>
      )}
      {unavailable && (
        <p role="status" data-testid="recipients-offline" className="mt-1 text-xs text-amber-700 dark:text-amber-400">
          Offline: recipients need the network. Log without recipient now and choose the recipient when it is back.
        </p>
      )}
    </div>
  );
}
