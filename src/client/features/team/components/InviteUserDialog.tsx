import { zodResolver } from '@hookform/resolvers/zod';
import { CreateInvitationBody, INVITATION_TTL_DAYS, ROLES, type WriteBlock } from '@contract';
import { AlertTriangle, Send } from 'lucide-react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { ChoiceSelect } from '@/components/ui/choice-select';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { WriteBlockNotice } from '@/components/WriteBlockNotice';
import { ApiError } from '@/lib/api';
import { toastFailure } from '@/lib/useErrorToast';
import { INVALID_JSON_REPLY, useCreateInvitation } from '../api/invitations';

const roleHints = {
  member: 'Logs, tracks and hands over mail; manages recipients.',
  admin: 'Everything a member does, plus users, settings and billing.',
} as const;

interface InviteUserDialogProps {
  organizationId: string;
  organizationName: string;
  /** No seat is free: the invitation can still go out, but joining waits for a seat. */
  seatsFull?: boolean;
  /** Inviting is paused (trial ended, subscription lapsed): the server would refuse with 402. */
  block?: WriteBlock | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Email (required; Send stays disabled while it is empty) and role, member by default (spec §5). */
export function InviteUserDialog({
  organizationId,
  organizationName,
  seatsFull = false,
  block = null,
  open,
  onOpenChange,
}: InviteUserDialogProps) {
  const invite = useCreateInvitation(organizationId);
  const { register, control, handleSubmit, formState, reset, setError } = useForm({
    resolver: zodResolver(CreateInvitationBody),
    defaultValues: { email: '', role: 'member' as const },
  });
  const { errors } = formState;
  const [email, role = 'member'] = useWatch({ control, name: ['email', 'role'] });

  const close = (next: boolean) => {
    if (invite.isPending) return;
    if (!next) reset();
    onOpenChange(next);
  };

  const onSubmit = handleSubmit((values) =>
    invite.mutate(values, {
      onSuccess: (sent) => {
        toast({
          title: 'Invitation sent',
          description: `${sent.email} was invited as ${sent.role === 'admin' ? 'an admin' : 'a member'}. The link expires in ${INVITATION_TTL_DAYS} days.`,
        });
        reset();
        onOpenChange(false);
      },
      onError: (err) => {
        // Already a member / already invited: say it beside the address too.
        if (err instanceof ApiError && err.status === 409 && err.reply?.message) {
          setError('email', { message: err.reply.message });
        }
        const invalidJson = err instanceof Error && err.message === INVALID_JSON_REPLY;
        toastFailure('Failed to send invitation', err, invalidJson ? INVALID_JSON_REPLY : undefined);
      },
    }),
  );

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent title="Invite user" description={`They receive an email with a link to join ${organizationName}.`}>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <FormField id="invite-email" label="Email" error={errors.email?.message}>
            <Input
              {...fieldA11y('invite-email', errors.email?.message)}
              type="email"
              autoComplete="off"
              placeholder="colleague@company.com"
              autoFocus
              {...register('email')}
            />
          </FormField>
          <FormField id="invite-role" label="Role" hint={roleHints[role]}>
            <Controller
              control={control}
              name="role"
              render={({ field }) => (
                <ChoiceSelect
                  id="invite-role"
                  options={ROLES}
                  value={field.value ?? 'member'}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  ref={field.ref}
                />
              )}
            />
          </FormField>
          {block && <WriteBlockNotice block={block} area="members" isAdmin />}
          {seatsFull && !block && (
            <p
              role="status"
              className="flex items-start gap-2 rounded-lg border border-amber-200 dark:border-amber-800 bg-amber-50 dark:bg-amber-950/40 px-3 py-2 text-sm text-amber-900 dark:text-amber-300"
            >
              <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" />
              All seats are taken. The invitation is sent, but they can join only once a seat is free.
            </p>
          )}
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={() => close(false)} disabled={invite.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={!email.trim() || invite.isPending || block !== null}>
              <Send aria-hidden />
              {invite.isPending ? 'Sending…' : 'Send Invitation'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
