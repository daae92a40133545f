import { ArrowRight, CheckCircle2 } from 'lucide-react';
import { TickList } from '@/components/TickList';
import { CtaLink } from './CtaLink';
import { ProductPreview } from './ProductPreview';

interface HeroProps {
  cta: { label: string; href: string };
  onIntent?: (href: string) => void;
}

export function Hero({ cta, onIntent }: HeroProps) {
  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
      <div
        aria-hidden
        className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_80%_60%_at_50%_-10%,var(--color-indigo-100),transparent)]"
      />
      <div
        aria-hidden
        className="absolute inset-0 -z-10 bg-[linear-gradient(to_right,rgb(226_232_240/0.6)_1px,transparent_1px),linear-gradient(to_bottom,rgb(226_232_240/0.6)_1px,transparent_1px)] bg-[size:3rem_3rem] [mask-image:radial-gradient(ellipse_70%_50%_at_50%_0%,black,transparent)]"
      />
      <div className="mx-auto max-w-6xl px-4 pb-12 pt-14 text-center sm:px-6 sm:pb-16 sm:pt-20">
        <p className="mx-auto inline-flex items-center gap-2 rounded-full border border-indigo-200 bg-white/80 px-3 py-1 text-xs font-medium text-indigo-700 shadow-sm sm:text-sm">
          <span className="size-1.5 rounded-full bg-indigo-500" />
          7-day free trial · No card required
        </p>
        <h1
          id="hero-title"
          className="mx-auto mt-6 max-w-4xl text-4xl font-semibold tracking-tight text-balance text-slate-900 sm:text-5xl lg:text-6xl"
        >
          Every parcel at your front desk, <span className="text-indigo-600">logged, tracked and handed over</span>
        </h1>
        <p className="mx-auto mt-5 max-w-2xl text-base leading-relaxed text-pretty text-slate-600 sm:text-lg">
          Pigeonhole is the mailroom system for residential buildings, hotels, offices and campuses. Scan the barcode,
          photograph the parcel, let the recipient know by email or SMS, and keep a timeline of every hand-over.
        </p>
        <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <CtaLink href={cta.href} size="lg" className="w-full sm:w-auto" onIntent={onIntent}>
            {cta.label} <ArrowRight aria-hidden />
          </CtaLink>
          <CtaLink href="#features" size="lg" variant="outline" className="w-full sm:w-auto">
            See how it works
          </CtaLink>
        </div>
        <TickList
          items={['Set up in about a minute', 'Works on desk PCs, tablets and phones', 'Cancel anytime']}
          icon={CheckCircle2}
          className="mx-auto mt-6 flex max-w-3xl flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm text-slate-600"
          itemClassName="flex items-center gap-1.5"
          iconClassName="size-4 text-emerald-600"
        />
        <div className="mt-14 sm:mt-16">
          <ProductPreview />
        </div>
      </div>
    </section>
  );
}
