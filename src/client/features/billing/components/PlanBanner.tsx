import { AlertTriangle, Clock, Sparkles } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import { useCurrentOrganization } from '@/lib/currentOrganization';
import { cn } from '@/lib/cn';
import { useNow } from '@/lib/useNow';
import { useRefreshOnWriteBlock } from '@/lib/writeBlock';
import { daysLeftText, planBannerOf, type PlanBanner as Banner } from '../planState';

const tones = {
  calm: 'border-indigo-100 dark:border-indigo-900 bg-indigo-50/70 dark:bg-indigo-950/40 text-indigo-900 dark:text-indigo-300',
  warning: 'border-amber-200 dark:border-amber-800 bg-amber-50 dark:bg-amber-950/40 text-amber-950 dark:text-amber-300',
  danger: 'border-red-200 dark:border-red-800 bg-red-50 dark:bg-red-950/40 text-red-900 dark:text-red-300',
} as const;

const iconTones = {
  calm: 'text-indigo-500 dark:text-indigo-400',
  warning: 'text-amber-600 dark:text-amber-400',
  danger: 'text-red-600 dark:text-red-400',
} as const;

function toneOf(banner: Banner): keyof typeof tones {
  return banner.kind === 'trial' ? banner.tone : 'danger';
}

function headline(banner: Banner): string {
  switch (banner.kind) {
    case 'trial':
      return `Free trial: ${daysLeftText(banner.daysLeft)}`;
    case 'trial_expired':
      return 'Free trial expired';
    case 'inactive':
      return banner.status === 'cancelled' ? 'Subscription cancelled' : 'Subscription expired';
  }
}

/** What the banner adds after the headline; nothing while plenty of the trial remains. */
function detail(banner: Banner): string | null {
  if (banner.kind === 'trial') {
    return banner.tone === 'calm'
      ? null
      : 'After that, logging new mail, inviting members and adding integrations pause until a plan is chosen.';
  }
  return 'Everything so far stays available; logging new mail, inviting members and adding integrations are paused.';
}

/**
 * The plan's state above every screen: a quiet line while a trial has days to go, amber within its
 * last 3 days, red once it has ended or a paid subscription is no longer active. Nothing for an
 * active paid plan. Admins get the way to checkout; members are told who can act.
 */
export function PlanBanner() {
  useRefreshOnWriteBlock();
  const { current } = useCurrentOrganization();
  const now = useNow();
  const [location] = useLocation();
  if (!current) return null;
  const banner = planBannerOf(current, now);
  if (!banner) return null;

  const tone = toneOf(banner);
  const Icon = banner.kind === 'trial' ? (tone === 'calm' ? Sparkles : Clock) : AlertTriangle;
  const isAdmin = current.role === 'admin';
  const onCheckout = location === '/checkout';
  const more = detail(banner);

  return (
    <section
      aria-label="Plan status"
      className={cn('border-b px-4 sm:px-6 md:px-8', tones[tone], tone === 'calm' ? 'py-2' : 'py-3')}
    >
      <div className="mx-auto flex w-full max-w-6xl flex-wrap items-center gap-x-4 gap-y-2">
        <p className="flex min-w-0 flex-1 basis-40 items-start gap-2 text-sm">
          <Icon aria-hidden className={cn('mt-0.5 size-4 shrink-0', iconTones[tone])} />
          <span className="min-w-0">
            <strong className="font-semibold">{headline(banner)}</strong>
            {/* on a phone the screen's own notice explains; the banner stays one line */}
            {more && <span className="hidden sm:inline"> · {more}</span>}
            {!isAdmin && <span> · ask an admin to choose a plan</span>}
          </span>
        </p>
        {isAdmin && !onCheckout && (
          <Button
            asChild
            size="sm"
            variant={tone === 'calm' ? 'outline' : 'default'}
            className={cn(
              'shrink-0',
              tone === 'calm' &&
                'border-indigo-200 dark:border-indigo-800 text-indigo-700 dark:text-indigo-300 hover:bg-indigo-100 dark:hover:bg-indigo-900/40',
              tone === 'danger' && 'bg-red-600 hover:bg-red-700',
              tone === 'warning' && 'bg-amber-600 hover:bg-amber-700',
            )}
          >
            <Link href="/checkout">Choose a plan</Link>
          </Button>
        )}
      </div>
    </section>
  );
}
