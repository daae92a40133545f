import { Check } from 'lucide-react';
import { propertyTypes } from '../content';
import { SectionHeading } from './SectionHeading';

export function PropertyTypesSection() {
  return (
    <section
      id="who-its-for"
      aria-labelledby="property-types-title"
      className="scroll-mt-16 border-y border-slate-200 bg-slate-50 py-20 sm:py-28"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading id="property-types-title" eyebrow="Who it’s for" title="Built for every kind of front desk">
          Recipients can be residents, guests or employees, and one team can run several mailrooms.
        </SectionHeading>
        <ul className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {propertyTypes.map(({ icon: Icon, title, text, points }) => (
            <li
              key={title}
              className="flex flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm transition-shadow hover:shadow-md"
            >
              <span className="flex size-11 items-center justify-center rounded-xl bg-gradient-to-br from-indigo-500 to-indigo-700 text-white shadow-sm">
                <Icon aria-hidden className="size-5" />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-slate-900">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-600">{text}</p>
              <ul className="mt-5 space-y-2 border-t border-slate-100 pt-5 text-sm text-slate-700">
                {points.map((point) => (
                  <li key={point} className="flex gap-2">
                    <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-indigo-600" />
                    {point}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
