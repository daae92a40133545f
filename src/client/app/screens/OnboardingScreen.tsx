import type { User } from '@contract';
import { Building2, Inbox, Users } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CreateOrganizationForm } from '@/features/organizations/components/CreateOrganizationForm';
import { StandaloneShell } from '../layout/StandaloneShell';

const steps = [
  { icon: Building2, title: 'Create your organization', text: 'A hotel, office or residential building.' },
  { icon: Users, title: 'Add recipients', text: 'Guests, employees or residents who receive mail.' },
  { icon: Inbox, title: 'Log incoming mail', text: 'Record arrivals and hand them over with a full trail.' },
];

/** Shown instead of every route while the user belongs to no organization. */
export function OnboardingScreen({ user }: { user: User }) {
  const [step, setStep] = useState<'welcome' | 'form'>('welcome');

  return (
    <StandaloneShell user={user}>
      {step === 'welcome' ? (
        <Card className="w-full max-w-xl">
          <CardContent className="sm:p-8">
            <h1 className="text-2xl font-semibold tracking-tight text-fg">
              Welcome to Pigeonhole{user.firstName ? `, ${user.firstName}` : ''}!
            </h1>
            <p className="mt-2 text-fg-muted">
              Let&apos;s set up your mailroom. It takes about a minute, and your organization starts with a 7-day free
              trial.
            </p>
            <ol className="mt-6 space-y-4">
              {steps.map(({ icon: Icon, title, text }, index) => (
                <li key={title} className="flex gap-4">
                  <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-indigo-50 dark:bg-indigo-950/40 text-indigo-600 dark:text-indigo-400">
                    <Icon aria-hidden className="size-5" />
                  </span>
                  <div>
                    <p className="font-medium text-fg">
                      {index + 1}. {title}
                    </p>
                    <p className="text-sm text-fg-subtle">{text}</p>
                  </div>
                </li>
              ))}
            </ol>
            <Button size="lg" className="mt-8 w-full" onClick={() => setStep('form')}>
              Create your first organization
            </Button>
          </CardContent>
        </Card>
      ) : (
        <Card className="w-full max-w-xl">
          <CardHeader className="sm:p-8 sm:pb-0">
            <CardTitle className="text-xl">Create your organization</CardTitle>
            <CardDescription>Only the name is required. You can change all of this later in Settings.</CardDescription>
          </CardHeader>
          <CardContent className="sm:p-8">
            <CreateOrganizationForm idPrefix="onboarding" cancelLabel="Back" onCancel={() => setStep('welcome')} />
          </CardContent>
        </Card>
      )}
    </StandaloneShell>
  );
}
