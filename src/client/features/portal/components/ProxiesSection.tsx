import { Trash2, UserPlus } from 'lucide-react';
import { ListState } from '@/components/ListState';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useSchemaForm } from '@/lib/schemaForm';
import { useAddProxy } from '../api/addProxy';
import { messageOf } from '../api/portalRequest';
import { useProxies } from '../api/proxies';
import { useRemoveProxy } from '../api/removeProxy';
import { Section } from './Section';
import { usePortalI18n } from '../i18n';

const note = 'mb-4 text-sm text-fg-subtle';

/** The people the desk hands the recipient's items to as well, and a form to name one more. */
export function ProxiesSection() {
  const proxies = useProxies();
  const { t } = usePortalI18n();
  const add = useAddProxy();
  const remove = useRemoveProxy();
  const form = useSchemaForm(() => import('../formSchemas').then((m) => m.ProxyBody), { name: '' });
  const onSubmit = form.submit(({ name }) => add.mutate(name, { onSuccess: () => form.reset() }));
  const error = form.errors.name ?? (add.isError ? messageOf(add.error) : null);
  return (
    <Section title={t('proxies.title')} description={t('proxies.description')}>
      <ListState
        data={proxies.data}
        isPending={proxies.isPending}
        isError={proxies.isError}
        skeleton={<p className={note}>{t('common.loading')}</p>}
        error={{
          title: t('proxies.loadError'),
          onRetry: () => void proxies.refetch(),
          className: 'mb-4',
        }}
        empty={<p className={note}>{t('proxies.empty')}</p>}
      >
        {(list) => (
          <ul className="mb-4 divide-y divide-line-subtle rounded-lg border border-line-subtle">
            {list.map((p) => (
              <li key={p.id} className="flex items-center justify-between gap-2 px-3 py-2 text-sm text-fg">
                {p.name}
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={t('common.remove', { name: p.name })}
                  onClick={() => remove.mutate(p.id)}
                >
                  <Trash2 aria-hidden />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </ListState>
      <form onSubmit={onSubmit} onFocus={form.preload} className="space-y-1.5" noValidate>
        <Label htmlFor="proxy-name">{t('proxies.addLabel')}</Label>
        <div className="flex gap-2">
          <Input id="proxy-name" placeholder={t('proxies.placeholder')} {...form.field('name')} />
          <Button type="submit" variant="outline" disabled={form.values.name.trim() === ''}>
            <UserPlus aria-hidden /> {t('common.add')}
          </Button>
        </div>
        {error && <p className="text-xs text-red-600 dark:text-red-400">{error}</p>}
      </form>
    </Section>
  );
}
