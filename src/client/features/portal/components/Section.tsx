import type { ReactNode } from 'react';

/** One card of the recipient's page: its title (the region's name), a sentence, its content. */
export function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <section className="rounded-xl border border-line bg-surface p-5 shadow-sm sm:p-6" aria-label={title}>
      <h2 className="text-base font-semibold text-fg">{title}</h2>
      {description && <p className="mt-1 text-sm text-fg-subtle">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** The line a card shows while its list loads, and where it is empty. */
export function SectionNote({ children }: { children: ReactNode }) {
  return <p className="text-sm text-fg-subtle">{children}</p>;
}
