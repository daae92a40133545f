import { BellRing, CheckCircle2, History, ScanLine } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Logo } from '@/components/Logo';

const highlights = [
  { icon: ScanLine, text: 'Log letters and parcels in seconds with photo and barcode capture' },
  { icon: BellRing, text: 'Let recipients know the moment something arrives' },
  { icon: History, text: 'Keep a complete audit trail of every hand-over' },
];

interface AuthLayoutProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** The frame of every signed-out form: a brand panel on large screens, the form on the right. */
export function AuthLayout({ title, description, children, footer }: AuthLayoutProps) {
  return (
    <div className="flex min-h-dvh bg-surface">
      <aside className="relative hidden w-[44%] max-w-xl flex-col justify-between overflow-hidden bg-gradient-to-br from-indigo-600 via-indigo-700 to-slate-900 p-10 text-white lg:flex">
        <Link
          href="/"
          className="w-fit rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
        >
          <Logo inverted />
        </Link>
        <div className="space-y-8">
          <p className="text-3xl font-semibold leading-tight tracking-tight">
            Every letter and parcel, logged, tracked and handed over.
          </p>
          <ul className="space-y-4">
            {highlights.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-start gap-3 text-indigo-100">
                <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-lg bg-white/10">
                  <Icon aria-hidden className="size-4" />
                </span>
                <span className="pt-1.5 text-sm leading-relaxed">{text}</span>
              </li>
            ))}
          </ul>
        </div>
        <p className="flex items-center gap-2 text-sm text-indigo-200">
          <CheckCircle2 aria-hidden className="size-4" /> 7-day free trial, no card required
        </p>
      </aside>

      <main className="flex flex-1 flex-col items-center justify-center px-5 py-10 sm:px-8">
        <div className="w-full max-w-md">
          <Link
            href="/"
            className="mb-8 inline-flex rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 lg:hidden"
          >
            <Logo />
          </Link>
          <div className="mb-6 space-y-1.5">
            <h1 className="text-2xl font-semibold tracking-tight text-fg">{title}</h1>
            {description && <p className="text-sm text-fg-subtle">{description}</p>}
          </div>
          {children}
          {footer && <div className="mt-8 space-y-2 text-center text-sm text-fg-subtle">{footer}</div>}
        </div>
      </main>
    </div>
  );
}
