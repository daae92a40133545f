import { useState } from 'react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { AuthLayout } from '@/features/auth/components/AuthLayout';
import { InvitationAwareSignUp } from '@/features/auth/components/InvitationAwareSignUp';
import { SignInForm } from '@/features/auth/components/SignInForm';
import { useInvitationToken } from '@/features/auth/hooks/useInvitationToken';

/** /auth: Login and Register tabs; an invitation token opens Register. */
export function AuthScreen() {
  const token = useInvitationToken();
  const [tab, setTab] = useState(token ? 'register' : 'login');

  return (
    <AuthLayout
      title={tab === 'login' ? 'Welcome back' : 'Create your account'}
      description={
        tab === 'login' ? 'Sign in to manage your mailroom.' : 'Start your 7-day free trial. No card required.'
      }
    >
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList className="mb-6 grid w-full grid-cols-2">
          <TabsTrigger value="login">Login</TabsTrigger>
          <TabsTrigger value="register">Register</TabsTrigger>
        </TabsList>
        <TabsContent value="login">
          <SignInForm />
        </TabsContent>
        <TabsContent value="register">
          <InvitationAwareSignUp token={token} />
        </TabsContent>
      </Tabs>
    </AuthLayout>
  );
}
