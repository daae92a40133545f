import { INTEGRATION_MESSAGES, type Integration, type IntegrationType, type MyOrganization } from '@contract';
import {
  CheckCircle2,
  Info,
  KeyRound,
  Lock,
  MoreHorizontal,
  Pencil,
  Plug,
  Plus,
  RotateCcw,
  ScrollText,
  Send,
  Trash2,
} from 'lucide-react';
import { useState } from 'react';
import { EmptyState } from '@/components/EmptyState';
import { ListState } from '@/components/ListState';
import { PageHeader } from '@/components/PageHeader';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { ListSkeleton, Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { WriteBlockNotice } from '@/components/WriteBlockNotice';
import { useWriteBlock } from '@/lib/writeBlock';
import { blockedReason } from '@/lib/writeBlockText';
import { cn } from '@/lib/cn';
import { toastFailure, useErrorToast } from '@/lib/useErrorToast';
import {
  useDeleteIntegration,
  useIntegrations,
  useRotateWebhookSecret,
  useUpdateIntegration,
  type CreatedIntegration,
} from '../api/integrations';
import { INTEGRATION_KINDS, integrationSummary, kindOf } from '../integrationTypes';
import { ApiKeysDialog } from './ApiKeysDialog';
import { DeliveriesDialog } from './DeliveriesDialog';
import { IntegrationFormDialog } from './IntegrationFormDialog';
import { SecretRevealDialog, type RevealedSecret } from './SecretReveal';
import { TestIntegrationDialog } from './TestIntegrationDialog';

export const integrationsTitle = 'Integrations';
export const integrationsDescription = 'Email, SMS and webhooks that tell people and systems about their mail.';

const count = new Intl.NumberFormat();

const BLOCK_NOTICE_ID = 'integrations-write-block';

function Catalog({
  integrations,
  isLoading,
  isAdmin,
  addPaused,
  onAdd,
}: {
  integrations: Integration[] | undefined;
  isLoading: boolean;
  isAdmin: boolean;
  /** Why adding is paused (the trial ended), or null. */
  addPaused: string | null;
  onAdd: (type: IntegrationType) => void;
}) {
  return (
    <section
      aria-label="Available integrations"
      className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 xl:grid-cols-5"
    >
      {INTEGRATION_KINDS.map((kind) => {
        const configured = integrations?.some((i) => i.type === kind.type) ?? false;
        return (
          <Card key={kind.type} role="group" aria-label={kind.title} className="flex flex-col p-4 sm:p-5">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <span className={cn('flex size-10 shrink-0 items-center justify-center rounded-lg', kind.tone)}>
                <kind.icon aria-hidden className="size-5" />
              </span>
              {isLoading ? (
                <Skeleton className="h-5 w-20 rounded-full" />
              ) : (
                configured && (
                  <Badge tone="green" className="gap-1">
                    <CheckCircle2 aria-hidden className="size-3" /> Configured
                  </Badge>
                )
              )}
            </div>
            <h2 className="mt-3 text-sm font-semibold text-fg sm:mt-4 sm:text-base">{kind.title}</h2>
            <p className="mt-1 hidden flex-1 text-sm text-fg-subtle sm:block">{kind.description}</p>
            <span aria-hidden className="flex-1 sm:hidden" />
            {isAdmin && (
              <Button
                variant="outline"
                size="sm"
                className="mt-4 self-stretch sm:self-start"
                onClick={() => onAdd(kind.type)}
                // the visible words and what they act on (WCAG 2.5.3: the name contains the label)
                aria-label={`${configured ? 'Add another' : 'Set up'} ${kind.title}`}
                disabled={addPaused !== null}
                title={addPaused ?? undefined}
                aria-describedby={addPaused ? BLOCK_NOTICE_ID : undefined}
              >
                {addPaused ? <Lock aria-hidden /> : <Plus aria-hidden />}
                {configured ? (
                  <>
                    <span className="sm:hidden">Add</span>
                    <span className="hidden sm:inline">Add another</span>
                  </>
                ) : (
                  'Set up'
                )}
              </Button>
            )}
          </Card>
        );
      })}
    </section>
  );
}

function Stats({ stats }: { stats: Integration['stats'] }) {
  return (
    <dl className="flex gap-4 text-xs" aria-label="Last 7 days">
      <div className="flex items-baseline gap-1">
        <dt className="text-fg-subtle">Sent</dt>
        <dd className="font-semibold text-fg tabular-nums">{count.format(stats.sent)}</dd>
      </div>
      <div className="flex items-baseline gap-1">
        <dt className="text-fg-subtle">Failed</dt>
        <dd
          className={cn('font-semibold tabular-nums', stats.failed > 0 ? 'text-red-600 dark:text-red-400' : 'text-fg')}
        >
          {count.format(stats.failed)}
        </dd>
      </div>
      <div className="flex items-baseline gap-1">
        <dt className="text-fg-subtle">Queued</dt>
        <dd className="font-semibold text-fg tabular-nums">{count.format(stats.queued)}</dd>
      </div>
    </dl>
  );
}

interface RowHandlers {
  onToggle: (integration: Integration) => void;
  onEdit: (integration: Integration) => void;
  onTest: (integration: Integration) => void;
  onDelete: (integration: Integration) => void;
  onDeliveries: (integration: Integration) => void;
  onRotate: (integration: Integration) => void;
  onKeys: (integration: Integration) => void;
}

function IntegrationRow({
  integration,
  isAdmin,
  toggling,
  handlers,
}: {
  integration: Integration;
  isAdmin: boolean;
  toggling: boolean;
  handlers: RowHandlers;
}) {
  const kind = kindOf(integration.type);
  const canTest = integration.type !== 'api';
  return (
    <li
      aria-label={integration.name}
      className="flex flex-col gap-3 px-4 py-4 sm:px-5 lg:flex-row lg:items-center lg:gap-5"
    >
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <span className={cn('flex size-10 shrink-0 items-center justify-center rounded-lg', kind.tone)}>
          <kind.icon aria-hidden className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="font-medium break-words text-fg">{integration.name}</span>
            <Badge tone="neutral">{kind.label}</Badge>
            {integration.attention && <Badge tone="yellow">Needs attention</Badge>}
          </p>
          <p className="mt-0.5 truncate text-sm text-fg-subtle" title={integrationSummary(integration)}>
            {integrationSummary(integration)}
          </p>
          {integration.attention && (
            <p className="mt-1 text-sm break-words text-amber-700 dark:text-amber-400">
              {integration.attention.reason}
            </p>
          )}
          <div className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="text-xs text-fg-subtle">Last 7 days</span>
            <Stats stats={integration.stats} />
          </div>
        </div>
      </div>
      <div className="flex items-center justify-between gap-2 border-t border-line-subtle pt-3 sm:justify-end lg:border-0 lg:pt-0">
        <label className="flex items-center gap-2 text-sm text-fg-muted">
          <Switch
            checked={integration.isActive}
            disabled={!isAdmin || toggling}
            onCheckedChange={() => handlers.onToggle(integration)}
            aria-label={`${integration.name} active`}
          />
          <span className="hidden w-7 sm:inline">{integration.isActive ? 'On' : 'Off'}</span>
        </label>
        {isAdmin && (
          <div className="flex items-center gap-1.5">
            {canTest && (
              <Button
                variant="outline"
                size="sm"
                onClick={() => handlers.onTest(integration)}
                aria-label={`Send test: ${integration.name}`}
              >
                <Send aria-hidden /> <span>Send test</span>
              </Button>
            )}
            <Button
              variant="outline"
              size="sm"
              onClick={() => handlers.onEdit(integration)}
              aria-label={`Edit ${integration.name}`}
            >
              <Pencil aria-hidden /> <span className="hidden sm:inline">Edit</span>
            </Button>
            <DropdownMenu modal={false}>
              <DropdownMenuTrigger asChild>
                <Button
                  variant="ghost"
                  size="sm"
                  className="size-8 px-0"
                  aria-label={`More actions: ${integration.name}`}
                >
                  <MoreHorizontal aria-hidden />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end" className="min-w-52">
                {integration.type === 'webhook' && (
                  <>
                    <DropdownMenuItem onSelect={() => handlers.onDeliveries(integration)}>
                      <ScrollText aria-hidden /> Deliveries
                    </DropdownMenuItem>
                    <DropdownMenuItem onSelect={() => handlers.onRotate(integration)}>
                      <RotateCcw aria-hidden /> Rotate signing secret
                    </DropdownMenuItem>
                    <DropdownMenuSeparator />
                  </>
                )}
                {integration.type === 'slack' && (
                  <>
                    <DropdownMenuItem onSelect={() => handlers.onDeliveries(integration)}>
                      <ScrollText aria-hidden /> Deliveries
                    </DropdownMenuItem>
                    <DropdownMenuSeparator />
                  </>
                )}
                {integration.type === 'api' && (
                  <>
                    <DropdownMenuItem onSelect={() => handlers.onKeys(integration)}>
                      <KeyRound aria-hidden /> API keys
                    </DropdownMenuItem>
                    <DropdownMenuSeparator />
                  </>
                )}
                <DropdownMenuItem
                  className="text-red-600 dark:text-red-400 data-[highlighted]:bg-red-50 dark:data-[highlighted]:bg-red-950/40 data-[highlighted]:text-red-700 dark:data-[highlighted]:text-red-300"
                  onSelect={() => handlers.onDelete(integration)}
                >
                  <Trash2 aria-hidden /> Delete
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
          </div>
        )}
      </div>
    </li>
  );
}

/** The Integrations screen: catalog with Configured badges, the organization's integrations and their tools. */
export function IntegrationsView({ organization, userEmail }: { organization: MyOrganization; userEmail: string }) {
  const organizationId = organization.id;
  const isAdmin = organization.role === 'admin';
  const list = useIntegrations(organizationId);
  useErrorToast(list.error, 'Failed to fetch integrations');
  const update = useUpdateIntegration(organizationId);
  const remove = useDeleteIntegration(organizationId);
  const rotate = useRotateWebhookSecret(organizationId);
  // After the trial (or with a lapsed subscription) the server refuses new integrations with 402.
  const block = useWriteBlock();
  const addPaused = block ? blockedReason(block) : null;

  const [form, setForm] = useState<{ type: IntegrationType; integration?: Integration } | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [testing, setTesting] = useState<Integration | null>(null);
  const [deleting, setDeleting] = useState<Integration | null>(null);
  const [deliveries, setDeliveries] = useState<Integration | null>(null);
  const [rotating, setRotating] = useState<Integration | null>(null);
  const [keys, setKeys] = useState<Integration | null>(null);
  const [secret, setSecret] = useState<RevealedSecret | null>(null);

  const openForm = (type: IntegrationType, integration?: Integration) => {
    setForm({ type, integration });
    setFormOpen(true);
  };

  const created = (integration: CreatedIntegration) => {
    if (integration.webhookSecret) {
      setSecret({
        title: 'Webhook signing secret',
        description: `Use it to verify that calls to ${integration.config.webhookUrl ?? 'your endpoint'} come from Pigeonhole (Standard Webhooks signatures).`,
        label: 'Signing secret',
        value: integration.webhookSecret,
      });
    } else if (integration.apiKey) {
      setSecret({
        title: 'Your API key',
        description: `The first key of ${integration.name}. Send it as a Bearer token; more keys can be made from API keys.`,
        label: 'API key',
        value: integration.apiKey,
      });
    }
  };

  const toggle = (integration: Integration) => {
    const isActive = !integration.isActive;
    update.mutate(
      { id: integration.id, changes: { isActive } },
      {
        onSuccess: () =>
          toast({
            title: isActive ? 'Integration on' : 'Integration off',
            description: isActive
              ? `${integration.name} sends messages again.`
              : `${integration.name} sends nothing until it is turned back on.`,
          }),
        onError: (err) => toastFailure(INTEGRATION_MESSAGES.statusFailed, err),
      },
    );
  };

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toast({ title: 'Integration deleted', description: `${deleting.name} has been removed.` });
        setDeleting(null);
      },
      onError: (err) => toastFailure(INTEGRATION_MESSAGES.deleteFailed, err),
    });
  };

  const confirmRotate = () => {
    if (!rotating) return;
    rotate.mutate(rotating.id, {
      onSuccess: ({ webhookSecret }) => {
        setSecret({
          title: 'New signing secret',
          description: `${rotating.name} signs every call with this secret from now on; the old one stops working.`,
          label: 'Signing secret',
          value: webhookSecret,
        });
        setRotating(null);
      },
      onError: (err) => toastFailure('Failed to rotate signing secret', err),
    });
  };

  const integrations = list.data;
  const body = (
    <ListState
      data={integrations}
      isPending={list.isPending}
      isError={list.isError}
      error={{
        title: 'The integrations could not be loaded',
        retrySize: 'default',
        onRetry: () => void list.refetch(),
      }}
      skeleton={<ListSkeleton label="Loading integrations" trailingClassName="h-6 w-11 rounded-full" />}
      empty={
        <EmptyState
          icon={Plug}
          title="No integrations yet"
          className="py-14"
          action={
            isAdmin &&
            !block && (
              <Button onClick={() => openForm('email')}>
                <Plus aria-hidden /> Set up email
              </Button>
            )
          }
        >
          {isAdmin
            ? 'Set up email first: recipients then hear about their mail the moment it is logged.'
            : 'An admin of your organization can set up email, SMS and webhooks here.'}
        </EmptyState>
      }
    >
      {(integrations) => (
        <ul className="divide-y divide-line-subtle">
          {integrations.map((integration) => (
            <IntegrationRow
              key={integration.id}
              integration={integration}
              isAdmin={isAdmin}
              toggling={update.isPending && update.variables?.id === integration.id}
              handlers={{
                onToggle: toggle,
                onEdit: (i) => openForm(i.type, i),
                onTest: setTesting,
                onDelete: setDeleting,
                onDeliveries: setDeliveries,
                onRotate: setRotating,
                onKeys: setKeys,
              }}
            />
          ))}
        </ul>
      )}
    </ListState>
  );

  return (
    <>
      <PageHeader
        title={integrationsTitle}
        description={integrationsDescription}
        actions={
          isAdmin && (
            <DropdownMenu modal={false}>
              <DropdownMenuTrigger asChild disabled={block !== null}>
                <Button
                  disabled={block !== null}
                  title={addPaused ?? undefined}
                  aria-describedby={block ? BLOCK_NOTICE_ID : undefined}
                >
                  {block ? <Lock aria-hidden /> : <Plus aria-hidden />} Add integration
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                {INTEGRATION_KINDS.map((kind) => (
                  <DropdownMenuItem key={kind.type} onSelect={() => openForm(kind.type)}>
                    <kind.icon aria-hidden /> {kind.title}
                  </DropdownMenuItem>
                ))}
              </DropdownMenuContent>
            </DropdownMenu>
          )
        }
      />
      <div className="space-y-6">
        {block && <WriteBlockNotice id={BLOCK_NOTICE_ID} block={block} area="integrations" isAdmin={isAdmin} />}
        {!isAdmin && (
          <p className="flex items-start gap-2 rounded-lg border border-sky-200 dark:border-sky-800 bg-sky-50 dark:bg-sky-950/40 px-3 py-2 text-sm text-sky-800 dark:text-sky-300">
            <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
            Only admins can add or change integrations. You can see what is set up and how it is doing.
          </p>
        )}
        <Catalog
          integrations={integrations}
          isLoading={list.isPending}
          isAdmin={isAdmin}
          addPaused={addPaused}
          onAdd={openForm}
        />
        <Card className="overflow-hidden">
          <CardHeader className="border-b border-line pb-4 sm:pb-4">
            <CardTitle>Active Integrations</CardTitle>
            <CardDescription>What this organization sends through, with the last 7 days of messages.</CardDescription>
          </CardHeader>
          {body}
        </Card>
      </div>

      {isAdmin && form && (
        <IntegrationFormDialog
          organizationId={organizationId}
          type={form.type}
          integration={form.integration}
          open={formOpen}
          onOpenChange={setFormOpen}
          onCreated={created}
        />
      )}
      <TestIntegrationDialog
        organizationId={organizationId}
        integration={testing}
        userEmail={userEmail}
        onClose={() => setTesting(null)}
      />
      <DeliveriesDialog organizationId={organizationId} integration={deliveries} onClose={() => setDeliveries(null)} />
      <ApiKeysDialog organizationId={organizationId} integration={keys} onClose={() => setKeys(null)} />
      <SecretRevealDialog secret={secret} onClose={() => setSecret(null)} />
      <ConfirmDialog
        open={Boolean(deleting)}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete integration"
        description={
          deleting
            ? `Are you sure you want to delete ${deleting.name}? Messages still queued through it will not be sent. This cannot be undone.`
            : undefined
        }
        confirmLabel="Delete integration"
        pendingLabel="Deleting…"
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
      <ConfirmDialog
        open={Boolean(rotating)}
        onOpenChange={(open) => !open && setRotating(null)}
        title="Rotate signing secret"
        description={
          rotating
            ? `A new secret is made for ${rotating.name} and the current one stops working at once. Update the receiving system with the new secret.`
            : undefined
        }
        confirmLabel="Rotate secret"
        pendingLabel="Rotating…"
        pending={rotate.isPending}
        onConfirm={confirmRotate}
      />
    </>
  );
}
