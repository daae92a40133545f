import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { AuthLayout } from '@/features/auth/components/AuthLayout';
import { AuthTabs } from '@/features/auth/components/AuthTabs';
import { InvitationAwareSignUp } from '@/features/auth/components/InvitationAwareSignUp';
import { SignInForm } from '@/features/auth/components/SignInForm';
import { useInvitationPreview } from '@/features/auth/hooks/useInvitationPreview';
import { useInvitationToken } from '@/features/auth/hooks/useInvitationToken';
import type { SignedOutScreenProps } from '../routes';
import { SsoAside } from '../SsoAside';

/**
 * /auth: Login and Register tabs; an invitation token opens Register, and either tab joins with it.
 * /auth/login and /auth/register open that tab (the pricing page's Get Started goes to Login).
 */
const TABS = [
  { value: 'login', label: 'Login' },
  { value: 'register', label: 'Register' },
] as const;

export function AuthScreen({ params }: SignedOutScreenProps) {
  const token = useInvitationToken();
  const [tab, setTab] = useState<'login' | 'register'>(() =>
    params.tab === 'login' || params.tab === 'register' ? params.tab : token ? 'register' : 'login',
  );
  const preview = useInvitationPreview(token);
  const invitation = preview.invitation;
  const organizationName = invitation?.organizationName;

  return (
    <AuthLayout
      title={organizationName ? `Join ${organizationName}` : tab === 'login' ? 'Welcome back' : 'Create your account'}
      description={
        organizationName
          ? tab === 'login'
            ? 'Already have an account? Sign in and you join the organization at once.'
            : 'Create your account to start working with your team.'
          : tab === 'login'
            ? 'Sign in to manage your mailroom.'
            : 'Start your 7-day free trial. No card required.'
      }
    >
      {token && invitation?.email && (
        <div className="mb-4">
          <SsoAside typed={invitation.email} invitationToken={token} />
        </div>
      )}
      <AuthTabs tabs={TABS} value={tab} onChange={setTab}>
        {tab === 'login' ? (
          <>
            {organizationName && (
              <p className="mb-4 flex gap-3 rounded-lg border border-indigo-200 dark:border-indigo-800 bg-indigo-50 dark:bg-indigo-950/40 p-3 text-sm text-indigo-900 dark:text-indigo-300">
                <MailCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-indigo-600 dark:text-indigo-400" />
                <span>
                  Signing in with <strong className="font-semibold">{invitation.email}</strong> adds you to{' '}
                  <strong className="font-semibold">{organizationName}</strong>.
                </span>
              </p>
            )}
            {/* a link already known to be invalid is not sent again: the person was told on arrival */}
            <SignInForm
              invitation={token && invitation !== null ? { token, organizationName } : undefined}
              // With an invitation its own address is offered above the tabs.
              addressAside={invitation?.email ? undefined : (typed) => <SsoAside typed={typed} />}
            />
          </>
        ) : (
          <InvitationAwareSignUp token={token} preview={preview} />
        )}
      </AuthTabs>
    </AuthLayout>
  );
}
