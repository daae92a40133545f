import type { ReactNode } from 'react';

/** A section's eyebrow, title and lead, centred. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  children,
  inverted = false,
}: {
  id: string;
  eyebrow: string;
  title: string;
  children?: ReactNode;
  inverted?: boolean;
}) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className={inverted ? 'text-sm font-semibold text-indigo-300' : 'text-sm font-semibold text-indigo-600'}>
        {eyebrow}
      </p>
      <h2
        id={id}
        className={
          inverted
            ? 'mt-2 text-3xl font-semibold tracking-tight text-balance text-white sm:text-4xl'
            : 'mt-2 text-3xl font-semibold tracking-tight text-balance text-slate-900 sm:text-4xl'
        }
      >
        {title}
      </h2>
      {children && (
        <p
          className={
            inverted
              ? 'mt-4 text-base leading-relaxed text-pretty text-slate-300 sm:text-lg'
              : 'mt-4 text-base leading-relaxed text-pretty text-slate-600 sm:text-lg'
          }
        >
          {children}
        </p>
      )}
    </div>
  );
}
