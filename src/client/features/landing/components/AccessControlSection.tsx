import { Check, ShieldCheck, UserCog, UserRound } from 'lucide-react';
import { TickList } from '@/components/TickList';
import { adminAbilities, memberAbilities, safeguards } from '../content';
import { SectionHeading } from './SectionHeading';

function RoleCard({
  icon: Icon,
  role,
  summary,
  abilities,
}: {
  icon: typeof UserCog;
  role: string;
  summary: string;
  abilities: string[];
}) {
  return (
    <div className="rounded-xl border border-white/10 bg-white/5 p-6 ring-1 ring-inset ring-white/5">
      <div className="flex items-center gap-3">
        <span className="flex size-10 items-center justify-center rounded-lg bg-indigo-500/20 text-indigo-200">
          <Icon aria-hidden className="size-5" />
        </span>
        <div>
          <h3 className="font-semibold text-white">{role}</h3>
          <p className="text-sm text-slate-300">{summary}</p>
        </div>
      </div>
      <TickList
        items={abilities}
        icon={Check}
        className="mt-5 space-y-2.5 text-sm text-slate-200"
        itemClassName="flex gap-2.5"
        iconClassName="mt-0.5 size-4 shrink-0 text-emerald-400"
      />
    </div>
  );
}

/** Who can do what: the two roles of an organization and the safeguards behind them. */
export function AccessControlSection() {
  return (
    <section
      id="access"
      aria-labelledby="access-title"
      className="relative isolate scroll-mt-16 overflow-hidden bg-slate-900 py-20 sm:py-28"
    >
      <div
        aria-hidden
        className="absolute -top-40 left-1/2 -z-10 h-80 w-[48rem] -translate-x-1/2 rounded-full bg-indigo-600/30 blur-3xl"
      />
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="access-title"
          eyebrow="Access control"
          title="The right access for everyone at the desk"
          inverted
        >
          Each organization has two roles. Admins invite the team by email and choose each person’s role; the last admin
          can never be removed, so an organization is never left without one.
        </SectionHeading>
        <div className="mt-14 grid gap-5 lg:grid-cols-3">
          <RoleCard icon={UserCog} role="Admin" summary="Runs the organization" abilities={adminAbilities} />
          <RoleCard icon={UserRound} role="Member" summary="Works the front desk" abilities={memberAbilities} />
          <div className="rounded-xl border border-indigo-400/30 bg-gradient-to-b from-indigo-500/20 to-indigo-500/5 p-6">
            <div className="flex items-center gap-3">
              <span className="flex size-10 items-center justify-center rounded-lg bg-indigo-500 text-white">
                <ShieldCheck aria-hidden className="size-5" />
              </span>
              <div>
                <h3 className="font-semibold text-white">Walled off by design</h3>
                <p className="text-sm text-slate-300">Behind every screen</p>
              </div>
            </div>
            <TickList
              items={safeguards}
              icon={Check}
              className="mt-5 space-y-3 text-sm leading-relaxed text-slate-200"
              itemClassName="flex gap-2.5"
              iconClassName="mt-0.5 size-4 shrink-0 text-emerald-400"
            />
          </div>
        </div>
      </div>
    </section>
  );
}
