import type { PortalItem } from '@contract';
import { MAX_HOLD_DAYS } from '@contract';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { isHeld } from '@/lib/format';
import { useSchemaForm } from '@/lib/schemaForm';
import { useHoldItem } from '../api/hold';
import { messageOf } from '../api/portalRequest';
import { dayFromToday } from '../days';
import { usePortalI18n } from '../i18n';

/** "Hold until…" a date, a change of that date, or the hold released (decisions 035, 052). */
export function HoldControl({ item }: { item: PortalItem }) {
  const [open, setOpen] = useState(false);
  const hold = useHoldItem(item.id);
  const i18n = usePortalI18n();
  const { t } = i18n;
  const formatDay = (date: string) => i18n.day(new Date(`${date}T00:00:00`));
  const formatHoldDay = (heldUntil: string) => i18n.day(new Date(Date.parse(heldUntil) - 1));
  const tomorrow = dayFromToday(1);
  const form = useSchemaForm(() => import('../formSchemas').then((m) => m.ItemHoldBody), {
    // Tomorrow, or the last day the desk allows when that is sooner.
    until: item.holdLatest && item.holdLatest < tomorrow ? item.holdLatest : tomorrow,
  });
  const save = (until: string | null) => hold.mutate(until, { onSuccess: () => setOpen(false) });
  // The last day the desk will keep it (decision 052): the organization's longest hold, from the
  // first; before today once that is used up, and then the page offers no new date.
  const latest = item.holdLatest ?? dayFromToday(MAX_HOLD_DAYS);
  const usedUp = latest < dayFromToday(0);
  if (usedUp && !open) {
    return (
      <div className="space-y-1 pt-1">
        <p className="text-xs text-fg-subtle" data-testid="hold-used-up">
          {t('hold.usedUp')}
        </p>
        {isHeld(item.heldUntil) && (
          <Button size="sm" variant="ghost" onClick={() => save(null)} disabled={hold.isPending}>
            {t('hold.release')}
          </Button>
        )}
      </div>
    );
  }
  if (isHeld(item.heldUntil) && !open) {
    return (
      <div className="flex flex-wrap gap-2 pt-1">
        <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
          {t('hold.change')}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => save(null)} disabled={hold.isPending}>
          {t('hold.release')}
        </Button>
      </div>
    );
  }
  if (!open) {
    return (
      <Button size="sm" variant="outline" className="mt-1" onClick={() => setOpen(true)}>
        {t('hold.open')}
      </Button>
    );
  }
  const id = `hold-${item.id}`;
  const error = form.errors.until ?? (hold.isError ? messageOf(hold.error) : null);
  return (
    <form className="space-y-2 pt-1" onSubmit={form.submit(({ until }) => save(until))} onFocus={form.preload}>
      <Label htmlFor={id} className="text-xs">
        {t('hold.label', { day: formatDay(latest) })}
      </Label>
      <div className="flex flex-wrap gap-2">
        <Input id={id} type="date" className="h-8 w-auto" min={dayFromToday(0)} max={latest} {...form.field('until')} />
        <Button size="sm" type="submit" disabled={hold.isPending || !form.values.until}>
          {t('hold.submit')}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
          {t('common.cancel')}
        </Button>
      </div>
      {error && <p className="text-xs text-red-600 dark:text-red-400">{error}</p>}
      {item.heldUntil && (
        <p className="text-xs text-fg-subtle">{t('hold.now', { day: formatHoldDay(item.heldUntil) })}</p>
      )}
    </form>
  );
}
