import { TWO_FACTOR_MESSAGES } from '@contract';
import { KeyRound, ShieldCheck, ShieldOff } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/lib/format';
import { useSignedInUser } from '@/lib/resources/currentUser';
import { useTwoFactorStatus } from '../../api/twoFactor';
import { SetUpTwoFactorDialog } from './SetUpTwoFactorDialog';
import { NewRecoveryCodesDialog, TurnOffTwoFactorDialog } from './TwoFactorCodeDialogs';

/** Account settings: two-factor sign-in with an authenticator app (recommended for admins). */
export function TwoFactorCard() {
  const status = useTwoFactorStatus();
  // Set-up waits for a verified address (the server refuses it too): see EmailVerificationNotice above.
  const user = useSignedInUser();
  const [dialog, setDialog] = useState<'setup' | 'off' | 'codes' | null>(null);
  const onOpenChange = (open: boolean) => !open && setDialog(null);
  const state = status.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          Two-factor authentication
          {state?.enabled && <Badge tone="green">On</Badge>}
        </CardTitle>
        <CardDescription>
          Ask for a code from an authenticator app on your phone each time you sign in, so a stolen password is not
          enough. Recommended for admins.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {status.isPending ? (
          <Skeleton className="h-10 w-56" />
        ) : status.isError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            Could not load your two-factor settings. Reload the page to try again.
          </p>
        ) : state?.enabled ? (
          <div className="flex flex-wrap items-center justify-between gap-4">
            <div className="space-y-1 text-sm text-fg-muted">
              <p className="flex items-center gap-2 text-emerald-700 dark:text-emerald-300">
                <ShieldCheck aria-hidden className="size-4" /> On since {formatDate(state.enabledAt!)}
              </p>
              <p
                className={state.recoveryCodesLeft <= 3 ? 'font-medium text-amber-800 dark:text-amber-300' : undefined}
              >
                {state.recoveryCodesLeft === 1
                  ? '1 recovery code left'
                  : `${state.recoveryCodesLeft} recovery codes left`}
                {state.recoveryCodesLeft <= 3 && ': create new ones soon.'}
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" onClick={() => setDialog('codes')}>
                <KeyRound aria-hidden /> New recovery codes
              </Button>
              <Button variant="outline" onClick={() => setDialog('off')}>
                <ShieldOff aria-hidden /> Turn off
              </Button>
            </div>
          </div>
        ) : (
          <div className="flex flex-wrap items-center justify-between gap-4">
            <div className="space-y-1 text-sm text-fg-muted">
              <p>Off: signing in needs only your password.</p>
              {!user.emailVerified && <p id="two-factor-waits">{TWO_FACTOR_MESSAGES.verifyEmailFirst}</p>}
            </div>
            <Button
              onClick={() => setDialog('setup')}
              disabled={!user.emailVerified}
              aria-describedby={user.emailVerified ? undefined : 'two-factor-waits'}
            >
              <ShieldCheck aria-hidden /> Set up two-factor
            </Button>
          </div>
        )}
      </CardContent>
      <SetUpTwoFactorDialog open={dialog === 'setup'} onOpenChange={onOpenChange} />
      <TurnOffTwoFactorDialog open={dialog === 'off'} onOpenChange={onOpenChange} />
      <NewRecoveryCodesDialog open={dialog === 'codes'} onOpenChange={onOpenChange} />
    </Card>
  );
}
