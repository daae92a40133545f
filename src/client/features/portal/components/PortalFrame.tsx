import type { ReactNode } from 'react';
import { Logo } from '@/components/Logo';

/** The signed-out frame of the recipient's page: the brand, one card, made for a phone first. */
export function PortalFrame({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-dvh flex-col items-center bg-canvas px-4 py-10 sm:justify-center">
      <div className="w-full max-w-md">
        <Logo className="mb-8" />
        <div className="rounded-xl border border-line bg-surface p-6 shadow-sm sm:p-8">
          <h1 className="text-xl font-semibold tracking-tight text-fg">{title}</h1>
          {description && <p className="mt-1.5 text-sm text-fg-subtle">{description}</p>}
          <div className="mt-6">{children}</div>
        </div>
        <p className="mt-6 text-center text-xs text-fg-subtle">
          For people who receive mail at a building that uses Pigeonhole. Staff sign in at{' '}
          <a className="underline" href="/login">
            /login
          </a>
          .
        </p>
      </div>
    </div>
  );
}
