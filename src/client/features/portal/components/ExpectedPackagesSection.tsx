import { useId } from 'react';
import { PackageCheck, Trash2 } from 'lucide-react';
import { EXPECTED_PACKAGES_MAX } from '@contract';
import { ListState } from '@/components/ListState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { useSchemaForm } from '@/lib/schemaForm';
import { useAddExpectedPackages } from '../api/addExpectedPackages';
import { useExpectedPackages } from '../api/expectedPackages';
import { messageOf } from '../api/portalRequest';
import { useRemoveExpectedPackage } from '../api/removeExpectedPackage';
import { usePortalI18n } from '../i18n';

const EMPTY = { mode: 'number', trackingNumber: '', text: '', label: '' };

/**
 * The recipient's page: the tracking numbers they expect (decision 033). A number typed, or a
 * shipping confirmation pasted whole (the server takes the numbers from it). Only a number its
 * carrier would issue is taken (decision 047: checked here by the contract's form schema, and by
 * the server); the desk's scan of one shows that they expect it, and they are told once it is
 * logged for them. Behind the portal's recipient session.
 */
export function ExpectedPackagesSection() {
  const ids = { number: useId(), label: useId(), text: useId() };
  const expected = useExpectedPackages();
  const { t } = usePortalI18n();
  const add = useAddExpectedPackages();
  const remove = useRemoveExpectedPackage();
  const form = useSchemaForm(() => import('../formSchemas').then((m) => m.ExpectedPackageForm), EMPTY);
  const mode = form.values.mode;
  const onSubmit = form.submit((body) =>
    // the fields empty again for the next one, in the way chosen
    add.mutate(body, { onSuccess: () => form.reset({ ...EMPTY, mode }) }),
  );
  const error =
    (mode === 'number' ? form.errors.trackingNumber : form.errors.text) ??
    (add.isError ? messageOf(add.error, t('expected.addFailed')) : undefined);
  const added =
    add.data && t('expected.added', { count: add.data.items.length, number: add.data.items[0]?.trackingNumber ?? '' });

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('expected.title')}</CardTitle>
        <CardDescription>{t('expected.description')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        <form onSubmit={onSubmit} onFocus={form.preload} noValidate className="space-y-3">
          <div role="group" aria-label={t('expected.how')} className="flex flex-wrap gap-2">
            <Button
              variant={mode === 'number' ? 'default' : 'outline'}
              size="sm"
              aria-pressed={mode === 'number'}
              onClick={() => form.set('mode', 'number')}
            >
              {t('expected.byNumber')}
            </Button>
            <Button
              variant={mode === 'paste' ? 'default' : 'outline'}
              size="sm"
              aria-pressed={mode === 'paste'}
              onClick={() => form.set('mode', 'paste')}
            >
              {t('expected.byPaste')}
            </Button>
          </div>
          {mode === 'number' ? (
            <FormField id={ids.number} label={t('expected.number')} error={error}>
              <Input
                {...fieldA11y(ids.number, error)}
                {...form.field('trackingNumber')}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                placeholder="1Z 999 AA1 0123 4567 84"
              />
            </FormField>
          ) : (
            <FormField id={ids.text} label={t('expected.email')} error={error} hint={t('expected.emailHint')}>
              <Textarea {...fieldA11y(ids.text, error)} {...form.field('text')} rows={5} />
            </FormField>
          )}
          <FormField id={ids.label} label={t('expected.label')} optional={t('common.optional')}>
            <Input
              id={ids.label}
              {...form.field('label')}
              maxLength={255}
              placeholder={t('expected.labelPlaceholder')}
            />
          </FormField>
          <div className="flex items-center gap-3">
            <Button type="submit" disabled={add.isPending}>
              {add.isPending ? t('expected.adding') : t('common.add')}
            </Button>
            {added && (
              <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
                {added}
              </p>
            )}
          </div>
        </form>

        <ListState
          data={expected.data}
          isPending={expected.isPending}
          isError={expected.isError}
          skeleton={null}
          error={{ title: t('expected.loadError'), onRetry: () => void expected.refetch() }}
          isEmpty={(list) => list.items.length === 0}
          empty={
            <p className="rounded-lg border border-dashed border-line px-4 py-6 text-center text-sm text-fg-secondary">
              {t('expected.empty', { max: EXPECTED_PACKAGES_MAX })}
            </p>
          }
        >
          {(list) => (
            <ul className="divide-y divide-line rounded-lg border border-line" aria-label={t('expected.list')}>
              {list.items.map((p) => (
                <li key={p.id} className="flex items-center gap-3 px-4 py-3">
                  <PackageCheck aria-hidden className="size-5 shrink-0 text-fg-secondary" />
                  <div className="min-w-0 flex-1">
                    {/* whole, wrapped: a number cut short cannot be checked against the shop's email */}
                    <p className="font-mono text-sm break-all uppercase">{p.trackingNumber}</p>
                    <p className="truncate text-xs text-fg-secondary">
                      {[p.carrier, p.label].filter(Boolean).join(' · ') || t('expected.unknownCarrier')}
                    </p>
                  </div>
                  {p.matchedAt ? (
                    <Badge tone="green">{t('expected.arrived')}</Badge>
                  ) : (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={t('common.remove', { name: p.trackingNumber })}
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(p.id)}
                    >
                      <Trash2 aria-hidden />
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </ListState>
      </CardContent>
    </Card>
  );
}
