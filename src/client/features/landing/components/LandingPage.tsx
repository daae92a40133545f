import { useEffect } from 'react';
import { AccessControlSection } from './AccessControlSection';
import { ClosingCta } from './ClosingCta';
import { FeaturesSection } from './FeaturesSection';
import { Hero } from './Hero';
import { LandingFooter } from './LandingFooter';
import { LicencePricingSection } from './LicencePricingSection';
import { PricingSection, type PlansState } from './PricingSection';
import { PropertyTypesSection } from './PropertyTypesSection';
import { TopBar } from './TopBar';

export type LandingVariant = 'trial' | 'licence';

interface LandingPageProps {
  /**
   * 'trial' (/ and /homepage): Get Started to /register, Start Free Trial, per-user plan cards.
   * 'licence' (/pricing): every Get Started to /auth/login, pricing per licence.
   */
  variant: LandingVariant;
  plans: PlansState;
  /** A link is about to be followed: the app may start loading that page. */
  onIntent?: (href: string) => void;
}

/**
 * Opened at /#pricing or /#features: the section exists only once React has drawn the page, after
 * the browser looked for it, so scroll to it now.
 */
function useScrollToHash() {
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView();
  }, []);
}

/** The signed-out home page (spec §2 "Landing page"), in its two variants. */
export function LandingPage({ variant, plans, onIntent }: LandingPageProps) {
  useScrollToHash();
  const getStarted = variant === 'licence' ? '/auth/login' : '/register';
  const mainCta =
    variant === 'licence'
      ? { label: 'Get Started', href: getStarted }
      : { label: 'Start Free Trial', href: getStarted };

  return (
    // light-only by design (decision 020): `.light` keeps its palette when the app is dark
    <div className="light min-h-dvh bg-white text-slate-900">
      <title>
        {variant === 'licence'
          ? 'Pricing per licence · Pigeonhole'
          : 'Pigeonhole · Mail and package management for front desks'}
      </title>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-3 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-indigo-700 focus:shadow-lg focus:ring-2 focus:ring-indigo-500"
      >
        Skip to content
      </a>
      <TopBar getStartedHref={getStarted} onIntent={onIntent} />
      <main id="main">
        <Hero cta={mainCta} onIntent={onIntent} />
        <FeaturesSection />
        <PropertyTypesSection />
        <AccessControlSection />
        {variant === 'licence' ? (
          <LicencePricingSection plans={plans} getStartedHref={getStarted} onIntent={onIntent} />
        ) : (
          <PricingSection plans={plans} onIntent={onIntent} />
        )}
        <ClosingCta cta={mainCta} onIntent={onIntent} />
      </main>
      <LandingFooter />
    </div>
  );
}
