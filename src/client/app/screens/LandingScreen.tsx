import { ArrowRight, Clock, Package, PackageCheck, Users } from 'lucide-react';
import { Link } from 'wouter';
import { Logo } from '@/components/Logo';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';

const previewStats = [
  { label: "Today's Mail", value: '48', icon: Package },
  { label: 'Pending Pickups', value: '17', icon: Clock },
  { label: 'Active Recipients', value: '312', icon: Users },
  { label: 'Delivery Rate', value: '96%', icon: PackageCheck },
];

const previewRows = [
  { type: 'Package', who: 'Maria Chen · Suite 402', status: 'Pending', tone: 'yellow' as const },
  { type: 'Certified Mail', who: 'Front Office', status: 'Notified', tone: 'blue' as const },
  { type: 'Letter', who: 'James Okafor · Room 1187', status: 'Delivered', tone: 'green' as const },
];

/** The signed-out home page (placeholder until the full landing page ships). */
export function LandingScreen() {
  return (
    <div className="min-h-dvh bg-white">
      <header className="border-b border-slate-100">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:px-5">
          <Logo />
          <nav className="flex items-center gap-1 sm:gap-2">
            <Button asChild variant="ghost" className="max-sm:px-3">
              <Link href="/login">Sign In</Link>
            </Button>
            <Button asChild className="max-sm:px-3">
              <Link href="/register">Get Started</Link>
            </Button>
          </nav>
        </div>
      </header>

      <main>
        <section className="relative overflow-hidden">
          <div
            aria-hidden
            className="absolute inset-x-0 top-0 -z-0 h-[28rem] bg-gradient-to-b from-indigo-50 via-white to-white"
          />
          <div className="relative mx-auto max-w-6xl px-5 pb-20 pt-16 text-center sm:pt-24">
            <Badge tone="indigo" className="mb-6">
              7-day free trial · No card required
            </Badge>
            <h1 className="mx-auto max-w-3xl text-4xl font-semibold tracking-tight text-slate-900 sm:text-5xl">
              The mailroom your front desk will actually enjoy using
            </h1>
            <p className="mx-auto mt-5 max-w-2xl text-lg leading-relaxed text-slate-600">
              Pigeonhole logs every letter and parcel, tells recipients it has arrived, and keeps an audit trail of
              every hand-over for hotels, offices and residential buildings.
            </p>
            <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
              <Button asChild size="lg">
                <Link href="/register">
                  Get Started <ArrowRight aria-hidden />
                </Link>
              </Button>
              <Button asChild size="lg" variant="outline">
                <Link href="/login">Sign In</Link>
              </Button>
            </div>

            <div
              aria-hidden
              className="mx-auto mt-16 max-w-4xl rounded-xl border border-slate-200 bg-white p-4 text-left shadow-xl shadow-slate-200/60 sm:p-6"
            >
              <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
                {previewStats.map(({ label, value, icon: Icon }) => (
                  <div key={label} className="rounded-lg border border-slate-200 p-3 sm:p-4">
                    <div className="flex items-center justify-between text-xs font-medium text-slate-500">
                      {label} <Icon className="size-4 text-slate-400" />
                    </div>
                    <div className="mt-2 text-2xl font-semibold text-slate-900">{value}</div>
                  </div>
                ))}
              </div>
              <div className="mt-4 divide-y divide-slate-100 rounded-lg border border-slate-200">
                {previewRows.map((row) => (
                  <div key={row.type} className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
                    <div className="min-w-0">
                      <div className="font-medium text-slate-900">{row.type}</div>
                      <div className="truncate text-slate-500">{row.who}</div>
                    </div>
                    <Badge tone={row.tone}>{row.status}</Badge>
                  </div>
                ))}
              </div>
            </div>
          </div>
        </section>
      </main>

      <footer className="border-t border-slate-100 px-5 py-8 text-center text-sm text-slate-500">
        © {new Date().getFullYear()} Pigeonhole. Mail and package management for modern front desks.
      </footer>
    </div>
  );
}
