import { LandingView } from './LandingScreen';

/** /pricing, signed out: the landing page's second variant, priced per licence (spec §2). */
export function PricingScreen() {
  return <LandingView variant="licence" />;
}
