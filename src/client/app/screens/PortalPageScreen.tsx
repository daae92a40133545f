import type { NotifyBy, PortalItem, PortalMe, Proxy } from '@contract';
import { COLLECTOR_NOT_RECORDED, MAX_HOLD_DAYS } from '@contract';
import { LogOut, MapPin, Package, RefreshCw, Trash2, UserPlus } from 'lucide-react';
import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { HeldBadge, MailStatusBadge } from '@/components/StatusBadge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageSpinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api';
import { formatDateTime, formatHoldDay, humanize, isHeld } from '@/lib/format';
import { messageOf, onRateRefusal, portalApi, type RateRefusal } from '@/features/portal/api';
import { ExpectedPackagesSection } from '@/features/portal/ExpectedPackagesSection';

const PAGE = 10;

/** A local calendar date, YYYY-MM-DD, `days` from today. */
const dayFromToday = (days: number) => {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** A YYYY-MM-DD date as the page writes days: "Thu, Dec 3". */
const formatDay = (date: string) =>
  new Date(`${date}T00:00:00`).toLocaleDateString(undefined, { weekday: 'short', month: 'short', day: 'numeric' });

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <section className="rounded-xl border border-line bg-surface p-5 shadow-sm sm:p-6" aria-label={title}>
      <h2 className="text-base font-semibold text-fg">{title}</h2>
      {description && <p className="mt-1 text-sm text-fg-subtle">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** /my/packages: the recipient's own page (decision 032), in its own small shell. */
export function PortalPageScreen() {
  const [, navigate] = useLocation();
  const [me, setMe] = useState<PortalMe | null>(null);
  const signedOut = useCallback(() => navigate('/my?signed-out', { replace: true }), [navigate]);
  const onError = useCallback(
    (err: unknown) => {
      if (err instanceof ApiError && err.status === 401) signedOut();
    },
    [signedOut],
  );

  useEffect(() => {
    portalApi.me().then(setMe, onError);
  }, [onError]);

  if (!me) return <PageSpinner />;

  async function signOut() {
    await portalApi.signOut().catch(() => undefined);
    signedOut();
  }

  return (
    <div className="min-h-dvh bg-canvas">
      <header className="sticky top-0 z-10 border-b border-line bg-surface/95 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-3xl items-center justify-between gap-3 px-4">
          <p className="truncate font-semibold text-fg">{me.organization.name}</p>
          <Button variant="ghost" size="sm" onClick={signOut}>
            <LogOut aria-hidden /> Sign out
          </Button>
        </div>
      </header>
      <main className="mx-auto max-w-3xl space-y-5 px-4 py-6">
        <RateRefusalNotice />
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-fg">Hello {me.recipient.firstName}</h1>
          <p className="text-sm text-fg-subtle">
            {me.recipient.firstName} {me.recipient.lastName} · {me.organization.name}
          </p>
        </div>
        <div className="grid gap-5 md:grid-cols-[1fr_16rem]">
          {/* On a phone the code comes first: it is what the recipient shows at the desk. */}
          <div className="md:order-last">
            <PickupCode me={me} setMe={setMe} onError={onError} />
          </div>
          <WaitingItems onError={onError} />
        </div>
        <ExpectedPackagesSection />
        <PastItems onError={onError} />
        <div className="grid gap-5 md:grid-cols-2">
          <Preferences me={me} setMe={setMe} onError={onError} />
          <Proxies onError={onError} />
        </div>
      </main>
    </div>
  );
}

/**
 * Any write of the page refused for its rate (429, decision 052) says so here, plainly, whichever
 * section made it, with how long to wait; it goes once the wait is over.
 */
function RateRefusalNotice() {
  const [refusal, setRefusal] = useState<RateRefusal | null>(null);
  useEffect(() => onRateRefusal(setRefusal), []);
  useEffect(() => {
    if (!refusal) return;
    const timer = setTimeout(() => setRefusal(null), refusal.retryAfterSeconds * 1000);
    return () => clearTimeout(timer);
  }, [refusal]);
  // The live region stays in the page, so a screen reader announces the sentence when it appears.
  return (
    <div role="alert" data-testid="portal-rate-refusal">
      {refusal && (
        <p className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200">
          {refusal.message} You can try again in {refusal.retryAfterSeconds}{' '}
          {refusal.retryAfterSeconds === 1 ? 'second' : 'seconds'}. Nothing was changed.
        </p>
      )}
    </div>
  );
}

type Props = { onError: (err: unknown) => void };

function PickupCode({ me, setMe, onError }: Props & { me: PortalMe; setMe: (me: PortalMe) => void }) {
  const [busy, setBusy] = useState(false);
  async function renew() {
    if (!window.confirm('Get a new pickup code? The one you have now stops working at once.')) return;
    setBusy(true);
    try {
      setMe({ ...me, pickupCode: await portalApi.newCode() });
    } catch (err) {
      onError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Section title="Your pickup code" description="Show it at the desk to collect.">
      <div className="flex flex-col items-center gap-3">
        <div
          className="w-40 rounded-lg bg-white p-2"
          role="img"
          aria-label={`QR code of your pickup code ${me.pickupCode.code}`}
          // The server draws this SVG from the code alone (uqr): no text of anyone's in it.
          dangerouslySetInnerHTML={{ __html: me.pickupCode.qrCodeSvg }}
        />
        <p className="font-mono text-3xl font-semibold tracking-widest text-fg" data-testid="pickup-code">
          {me.pickupCode.code}
        </p>
        <Button variant="outline" size="sm" onClick={renew} disabled={busy}>
          <RefreshCw aria-hidden /> New code
        </Button>
      </div>
    </Section>
  );
}

/**
 * When and by whom a past item left the desk, as recorded: a delivery without a recorded collector
 * says so rather than "collected" (issue 41 item 6).
 */
function handedOver(item: PortalItem): string {
  const at = item.deliveredAt ? formatDateTime(item.deliveredAt) : '';
  if (item.collectorName) return `collected by ${item.collectorName} ${at}`;
  if (item.status === 'delivered') return `marked delivered ${at} · ${COLLECTOR_NOT_RECORDED}`;
  return `${humanize(item.status).toLowerCase()} ${at}`;
}

function ItemCard({ item, children }: { item: PortalItem; children?: ReactNode }) {
  return (
    <li className="flex gap-3 rounded-lg border border-line-subtle p-3" data-testid="portal-item">
      {item.hasPhoto ? (
        <img
          src={`/api/portal/items/${item.id}/photo/thumbnail`}
          alt={`Photo of the ${humanize(item.type).toLowerCase()}`}
          className="size-16 shrink-0 rounded-md object-cover"
          loading="lazy"
        />
      ) : (
        <div className="flex size-16 shrink-0 items-center justify-center rounded-md bg-surface-muted text-fg-subtle">
          <Package aria-hidden className="size-6" />
        </div>
      )}
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-fg">{humanize(item.type)}</span>
          <MailStatusBadge status={item.status} />
          <HeldBadge heldUntil={item.heldUntil} />
        </div>
        {item.location && (
          <p className="flex items-center gap-1 text-sm text-fg-secondary">
            <MapPin aria-hidden className="size-3.5" /> {item.location}
          </p>
        )}
        <p className="text-xs text-fg-subtle">
          Arrived {formatDateTime(item.arrivedAt)}
          {item.sender ? ` · from ${item.sender}` : ''}
          {item.deliveredAt ? ` · ${handedOver(item)}` : ''}
        </p>
        {item.trackingNumber && <p className="font-mono text-xs break-all text-fg-subtle">{item.trackingNumber}</p>}
        {children}
      </div>
    </li>
  );
}

function HoldControl({ item, onChange, onError }: Props & { item: PortalItem; onChange: (item: PortalItem) => void }) {
  const [open, setOpen] = useState(false);
  // Tomorrow, or the last day the desk allows when that is sooner.
  const [date, setDate] = useState(() => {
    const tomorrow = dayFromToday(1);
    return item.holdLatest && item.holdLatest < tomorrow ? item.holdLatest : tomorrow;
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function save(event: FormEvent | null, until: string | null) {
    event?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onChange(await portalApi.hold(item.id, until));
      setOpen(false);
    } catch (err) {
      onError(err);
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }
  // The last day the desk will keep it (decision 052): the organization's longest hold, from the
  // first; before today once that is used up, and then the page offers no new date.
  const latest = item.holdLatest ?? dayFromToday(MAX_HOLD_DAYS);
  const usedUp = latest < dayFromToday(0);
  if (usedUp && !open) {
    return (
      <div className="space-y-1 pt-1">
        <p className="text-xs text-fg-subtle" data-testid="hold-used-up">
          Held as long as the desk allows: please collect it.
        </p>
        {isHeld(item.heldUntil) && (
          <Button size="sm" variant="ghost" onClick={() => save(null, null)} disabled={busy}>
            Release hold
          </Button>
        )}
      </div>
    );
  }
  if (isHeld(item.heldUntil) && !open) {
    return (
      <div className="flex flex-wrap gap-2 pt-1">
        <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
          Change date
        </Button>
        <Button size="sm" variant="ghost" onClick={() => save(null, null)} disabled={busy}>
          Release hold
        </Button>
      </div>
    );
  }
  if (!open) {
    return (
      <Button size="sm" variant="outline" className="mt-1" onClick={() => setOpen(true)}>
        Hold until…
      </Button>
    );
  }
  const id = `hold-${item.id}`;
  return (
    <form className="space-y-2 pt-1" onSubmit={(e) => save(e, date)}>
      <Label htmlFor={id} className="text-xs">
        Keep it at the desk until (at the latest {formatDay(latest)})
      </Label>
      <div className="flex flex-wrap gap-2">
        <Input
          id={id}
          type="date"
          className="h-8 w-auto"
          min={dayFromToday(0)}
          max={latest}
          value={date}
          onChange={(e) => setDate(e.target.value)}
        />
        <Button size="sm" type="submit" disabled={busy || !date}>
          Hold
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
      {error && <p className="text-xs text-red-600 dark:text-red-400">{error}</p>}
      {item.heldUntil && <p className="text-xs text-fg-subtle">Held until {formatHoldDay(item.heldUntil)} now.</p>}
    </form>
  );
}

function WaitingItems({ onError }: Props) {
  const [page, setPage] = useState<{ items: PortalItem[]; total: number } | null>(null);
  useEffect(() => {
    portalApi.items('waiting', 0, 50).then(setPage, onError);
  }, [onError]);
  const replace = (next: PortalItem) =>
    setPage((p) => p && { ...p, items: p.items.map((i) => (i.id === next.id ? next : i)) });
  return (
    <Section
      title={page ? `Waiting for you (${page.total})` : 'Waiting for you'}
      description="Away for a while? Ask the desk to hold an item until a date."
    >
      {!page ? (
        <p className="text-sm text-fg-subtle">Loading…</p>
      ) : page.items.length === 0 ? (
        <p className="text-sm text-fg-subtle">Nothing is waiting for you right now.</p>
      ) : (
        <ul className="space-y-3">
          {page.items.map((item) => (
            <ItemCard key={item.id} item={item}>
              <HoldControl item={item} onChange={replace} onError={onError} />
            </ItemCard>
          ))}
        </ul>
      )}
    </Section>
  );
}

function PastItems({ onError }: Props) {
  const [items, setItems] = useState<PortalItem[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const more = useCallback(
    (offset: number) =>
      portalApi.items('past', offset, PAGE).then((page) => {
        setItems((prev) => (offset === 0 ? page.items : [...prev, ...page.items]));
        setTotal(page.total);
      }, onError),
    [onError],
  );
  useEffect(() => {
    void more(0);
  }, [more]);
  return (
    <Section title="Past items" description="Collected or returned, newest first.">
      {total === null ? (
        <p className="text-sm text-fg-subtle">Loading…</p>
      ) : items.length === 0 ? (
        <p className="text-sm text-fg-subtle">No past items yet.</p>
      ) : (
        <>
          <ul className="space-y-3">
            {items.map((item) => (
              <ItemCard key={item.id} item={item} />
            ))}
          </ul>
          {items.length < total && (
            <Button variant="outline" size="sm" className="mt-4" onClick={() => void more(items.length)}>
              Show more ({total - items.length} left)
            </Button>
          )}
        </>
      )}
    </Section>
  );
}

const CHOICES: Array<{ value: NotifyBy; label: string; hint: string }> = [
  { value: 'both', label: 'Email and SMS', hint: 'Every way the desk can reach you' },
  { value: 'email', label: 'Email only', hint: '' },
  { value: 'sms', label: 'SMS only', hint: '' },
];

function Preferences({ me, setMe, onError }: Props & { me: PortalMe; setMe: (me: PortalMe) => void }) {
  const [saved, setSaved] = useState(false);
  // Shown at once; the server's answer confirms it (or the old choice comes back).
  const [choice, setChoice] = useState(me.recipient.notifyBy);
  const smsPossible = me.smsAvailable && !!me.recipient.phone;
  const emailPossible = !!me.recipient.email;
  async function choose(notifyBy: NotifyBy) {
    setSaved(false);
    setChoice(notifyBy);
    try {
      setMe(await portalApi.setNotifyBy(notifyBy));
      setSaved(true);
    } catch (err) {
      setChoice(me.recipient.notifyBy);
      onError(err);
    }
  }
  return (
    <Section title="How we reach you" description="When something arrives for you, and when it is still waiting.">
      <fieldset className="space-y-2">
        <legend className="sr-only">Notify me by</legend>
        {CHOICES.map((c) => {
          const disabled = (c.value === 'sms' && !smsPossible) || (c.value === 'email' && !emailPossible);
          return (
            <label
              key={c.value}
              className={`flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm ${
                choice === c.value ? 'border-indigo-500 bg-indigo-50 dark:bg-indigo-950' : 'border-line'
              } ${disabled ? 'cursor-not-allowed opacity-50' : ''}`}
            >
              <input
                type="radio"
                name="notify-by"
                value={c.value}
                className="mt-0.5 accent-indigo-600"
                checked={choice === c.value}
                disabled={disabled}
                onChange={() => void choose(c.value)}
              />
              <span>
                <span className="font-medium text-fg">{c.label}</span>
                {c.hint && <span className="block text-xs text-fg-subtle">{c.hint}</span>}
              </span>
            </label>
          );
        })}
      </fieldset>
      {!smsPossible && (
        <p className="mt-2 text-xs text-fg-subtle">
          {me.smsAvailable ? 'Ask the desk to add your mobile number for SMS.' : 'This building sends email only.'}
        </p>
      )}
      <p role="status" className="mt-2 h-4 text-xs text-emerald-700 dark:text-emerald-400">
        {saved ? 'Saved.' : ''}
      </p>
    </Section>
  );
}

function Proxies({ onError }: Props) {
  const [list, setList] = useState<Proxy[] | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    portalApi.proxies().then(setList, onError);
  }, [onError]);
  async function add(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const proxy = await portalApi.addProxy(name);
      setList((l) => [...(l ?? []), proxy].sort((a, b) => a.name.localeCompare(b.name)));
      setName('');
    } catch (err) {
      onError(err);
      setError(messageOf(err));
    }
  }
  async function remove(proxy: Proxy) {
    try {
      await portalApi.removeProxy(proxy.id);
      setList((l) => (l ?? []).filter((p) => p.id !== proxy.id));
    } catch (err) {
      onError(err);
    }
  }
  return (
    <Section title="Who may collect for you" description="The desk hands your items to these people too, on ID.">
      {list && list.length > 0 ? (
        <ul className="mb-4 divide-y divide-line-subtle rounded-lg border border-line-subtle">
          {list.map((p) => (
            <li key={p.id} className="flex items-center justify-between gap-2 px-3 py-2 text-sm text-fg">
              {p.name}
              <Button variant="ghost" size="sm" aria-label={`Remove ${p.name}`} onClick={() => void remove(p)}>
                <Trash2 aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mb-4 text-sm text-fg-subtle">{list ? 'Nobody yet: only you can collect.' : 'Loading…'}</p>
      )}
      <form onSubmit={add} className="space-y-1.5" noValidate>
        <Label htmlFor="proxy-name">Add a person</Label>
        <div className="flex gap-2">
          <Input id="proxy-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Full name" />
          <Button type="submit" variant="outline" disabled={name.trim() === ''}>
            <UserPlus aria-hidden /> Add
          </Button>
        </div>
        {error && <p className="text-xs text-red-600 dark:text-red-400">{error}</p>}
      </form>
    </Section>
  );
}
