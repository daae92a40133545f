import { TestIntegrationBody, type Integration } from '@contract';
import { CheckCircle2, Send, XCircle } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { serverMessage } from '@/lib/api';
import { checkForm } from '@/lib/forms';
import { useTestIntegration, type TestIntegrationReply } from '../api/integrations';
import { IntegrationDialog, type ChosenIntegrationProps } from './IntegrationDialog';

/** An SMS test needs the number to text; an email test goes to the signed-in user. */
const smsTest = TestIntegrationBody.extend({
  to: TestIntegrationBody.shape.to.unwrap().min(1, 'Enter the phone number to text'),
});

interface TestIntegrationDialogProps extends ChosenIntegrationProps {
  /** Where the test email goes: the signed-in user. */
  userEmail: string;
}

function Result({ reply }: { reply: TestIntegrationReply }) {
  const details = [
    reply.responseStatus !== null ? `Response ${reply.responseStatus}` : null,
    reply.latencyMs !== null ? `${reply.latencyMs} ms` : null,
  ].filter(Boolean);
  return (
    <div
      role="status"
      aria-label="Test result"
      className={
        reply.ok
          ? 'flex items-start gap-2.5 rounded-lg border border-emerald-200 dark:border-emerald-800 bg-emerald-50 dark:bg-emerald-950/40 px-3 py-2.5 text-sm text-emerald-900 dark:text-emerald-300'
          : 'flex items-start gap-2.5 rounded-lg border border-red-200 dark:border-red-800 bg-red-50 dark:bg-red-950/40 px-3 py-2.5 text-sm text-red-900 dark:text-red-300'
      }
    >
      {reply.ok ? (
        <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" />
      ) : (
        <XCircle aria-hidden className="mt-0.5 size-4 shrink-0 text-red-600 dark:text-red-400" />
      )}
      <div className="min-w-0">
        <p className="font-medium">{reply.ok ? 'Test sent' : 'Test failed'}</p>
        <p className="break-words">{reply.message}</p>
        {details.length > 0 && <p className="mt-0.5 text-xs opacity-80">{details.join(' · ')}</p>}
      </div>
    </div>
  );
}

function TestForm({
  organizationId,
  integration,
  userEmail,
  onClose,
}: TestIntegrationDialogProps & { integration: Integration }) {
  const id = useId();
  const test = useTestIntegration(organizationId);
  const [to, setTo] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [reply, setReply] = useState<TestIntegrationReply | null>(null);
  const needsPhone = integration.type === 'sms';

  const send = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkForm(needsPhone ? smsTest : TestIntegrationBody, { to: needsPhone ? to : undefined });
    if (checked.errors) {
      setProblem(checked.errors.to ?? null);
      return;
    }
    setReply(null);
    test.mutate(
      { id: integration.id, ...checked.data },
      {
        onSuccess: setReply,
        onError: (err) =>
          setReply({
            ok: false,
            message: serverMessage(err, 'The test could not be sent.'),
            responseStatus: null,
            latencyMs: null,
          }),
      },
    );
  };

  return (
    <form onSubmit={send} noValidate className="space-y-4">
      {integration.type === 'email' && (
        <p className="text-sm text-fg-muted">
          A test email goes to you at <strong className="font-medium text-fg">{userEmail}</strong>.
        </p>
      )}
      {integration.type === 'webhook' && (
        <p className="text-sm text-fg-muted">
          A signed test event is posted to{' '}
          <span className="font-mono text-xs break-all text-fg">{integration.config.webhookUrl}</span>.
        </p>
      )}
      {integration.type === 'teams' && (
        <p className="text-sm text-fg-muted">
          A test card is posted to the Teams channel through{' '}
          <span className="font-mono text-xs break-all text-fg">
            {integration.config.teamsSettings?.webhookHost ?? 'its Workflows URL'}
          </span>
          .
        </p>
      )}
      {integration.type === 'slack' && (
        <p className="text-sm text-fg-muted">
          {integration.config.slackSettings?.staffChannelId
            ? `A test message is posted to #${integration.config.slackSettings.staffChannelName ?? integration.config.slackSettings.staffChannelId}.`
            : 'Slack checks the bot token; pick a staff channel to receive a test message there.'}
        </p>
      )}
      {needsPhone && (
        <FormField id={id} label="Phone number" error={problem ?? undefined} hint="In international format.">
          <Input
            id={id}
            type="tel"
            autoFocus
            placeholder="+15551234567"
            value={to}
            aria-invalid={problem ? true : undefined}
            onChange={(event) => {
              setTo(event.target.value);
              setProblem(null);
            }}
          />
        </FormField>
      )}
      {reply && <Result reply={reply} />}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose}>
          Done
        </Button>
        <Button type="submit" disabled={test.isPending}>
          <Send aria-hidden />
          {test.isPending ? 'Sending…' : reply ? 'Send again' : 'Send test'}
        </Button>
      </div>
    </form>
  );
}

/** Send test: email to the caller, SMS to a number typed here, a webhook ping; shows the outcome and latency. */
export function TestIntegrationDialog(props: TestIntegrationDialogProps) {
  const { integration, onClose } = props;
  return (
    <IntegrationDialog integration={integration} onClose={onClose} title="Send a test">
      {(chosen) => <TestForm key={chosen.id} {...props} integration={chosen} />}
    </IntegrationDialog>
  );
}
