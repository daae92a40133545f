import { ArrowRight } from 'lucide-react';
import { CtaLink } from './CtaLink';

interface ClosingCtaProps {
  cta: { label: string; href: string };
  onIntent?: (href: string) => void;
}

export function ClosingCta({ cta, onIntent }: ClosingCtaProps) {
  return (
    <section aria-labelledby="closing-title" className="bg-white px-4 pb-20 sm:px-6 sm:pb-28">
      <div className="relative isolate mx-auto max-w-6xl overflow-hidden rounded-3xl bg-gradient-to-br from-indigo-600 via-indigo-700 to-indigo-950 px-6 py-14 text-center shadow-2xl shadow-indigo-900/20 sm:px-16 sm:py-20">
        <div aria-hidden className="absolute -right-24 -top-24 -z-10 size-80 rounded-full bg-white/10 blur-2xl" />
        <div aria-hidden className="absolute -bottom-32 -left-20 -z-10 size-80 rounded-full bg-sky-400/20 blur-3xl" />
        <h2
          id="closing-title"
          className="mx-auto max-w-2xl text-3xl font-semibold tracking-tight text-balance text-white sm:text-4xl"
        >
          Give your front desk a mailroom it can keep up with
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-base leading-relaxed text-indigo-100 sm:text-lg">
          Create your organization, add your recipients and log the first parcel today. Your 7-day free trial starts
          right away, with no card required.
        </p>
        <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <CtaLink href={cta.href} variant="inverted" size="lg" className="w-full sm:w-auto" onIntent={onIntent}>
            {cta.label} <ArrowRight aria-hidden />
          </CtaLink>
          <CtaLink href="/login" variant="invertedGhost" size="lg" className="w-full sm:w-auto" onIntent={onIntent}>
            Sign In
          </CtaLink>
        </div>
      </div>
    </section>
  );
}
