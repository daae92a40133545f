import {
  ChartColumn,
  Clock,
  History,
  Inbox,
  LayoutDashboard,
  Package,
  PackageCheck,
  PackageOpen,
  Users,
} from 'lucide-react';
import { mailStatusStyle, OVERDUE_STYLE } from '@/lib/statusStyles';
import { badgeClass } from '../styles';
import { BrandMark } from './Brand';

const stats = [
  { label: "Today's Mail", value: '48', icon: Package },
  { label: 'Pending Pickups', value: '17', icon: Clock },
  { label: 'Active Recipients', value: '312', icon: Users },
  { label: 'Delivery Rate', value: '96%', icon: PackageCheck },
];

const rows = [
  {
    type: 'Package',
    detail: 'UPS · 1Z999AA10123456784',
    who: 'Maria Chen · Unit 402',
    where: 'Shelf A2',
    status: 'pending',
    overdue: true,
  },
  {
    type: 'Certified Mail',
    detail: 'USPS · 9407 1000 0000 0000 0000 00',
    who: 'Finance Department',
    where: 'Cabinet 1',
    status: 'notified',
    overdue: false,
  },
  {
    type: 'Package',
    detail: 'Amazon · TBA123456789000',
    who: 'James Okafor · Room 1187',
    where: 'Locker 7',
    status: 'notified',
    overdue: false,
  },
  {
    type: 'Letter',
    detail: 'From: City Water Department',
    who: 'Priya Nair · Unit 1203',
    where: 'Bin 3',
    status: 'delivered',
    overdue: false,
  },
];

/** The app's colours for a status (lib/statusStyles): Pending yellow, Notified blue, Delivered green. */
function StatusBadge({ status }: { status: string }) {
  const { label, tone } = mailStatusStyle(status);
  return <span className={badgeClass(tone)}>{label}</span>;
}

const rail = [LayoutDashboard, Inbox, PackageOpen, Users, History, ChartColumn];

/**
 * A picture of the app drawn in HTML (no image to download, nothing to shift while it loads):
 * the dashboard's cards and a few items. Decorative: hidden from screen readers.
 */
export function ProductPreview() {
  return (
    <div aria-hidden className="relative mx-auto w-full max-w-5xl select-none">
      <div className="absolute -inset-x-6 -bottom-6 -top-6 -z-10 rounded-[2rem] bg-gradient-to-tr from-indigo-200/50 via-sky-100/40 to-white blur-2xl" />
      <div className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-2xl shadow-indigo-900/10 ring-1 ring-slate-900/5">
        <div className="flex h-9 items-center gap-1.5 border-b border-slate-200 bg-slate-50 px-4">
          <span className="size-2.5 rounded-full bg-slate-300" />
          <span className="size-2.5 rounded-full bg-slate-300" />
          <span className="size-2.5 rounded-full bg-slate-300" />
          <span className="ml-3 hidden h-5 w-64 rounded-md bg-white text-[11px] leading-5 text-slate-500 ring-1 ring-slate-200 sm:block">
            <span className="px-2">pigeonhole · Dashboard</span>
          </span>
        </div>
        <div className="flex">
          <div className="hidden w-14 shrink-0 flex-col items-center gap-2 border-r border-slate-200 py-3 sm:flex">
            <BrandMark size="mb-2 size-7" />
            {rail.map((Icon, i) => (
              <span
                key={i}
                className={
                  i === 0
                    ? 'flex size-9 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600'
                    : 'flex size-9 items-center justify-center rounded-lg text-slate-400'
                }
              >
                <Icon className="size-[18px]" />
              </span>
            ))}
          </div>
          <div className="min-w-0 flex-1 bg-slate-50/60 p-3 text-left sm:p-5">
            <div className="mb-3 flex items-baseline justify-between gap-2 sm:mb-4">
              <div>
                <div className="text-sm font-semibold text-slate-900 sm:text-base">Dashboard</div>
                <div className="text-[11px] text-slate-500 sm:text-xs">Harbor View Residences · Main Lobby</div>
              </div>
              <span className="hidden rounded-lg bg-indigo-600 px-3 py-1.5 text-xs font-medium text-white shadow-sm sm:inline">
                Log Mail
              </span>
            </div>
            <div className="grid grid-cols-2 gap-2 sm:gap-3 md:grid-cols-4">
              {stats.map(({ label, value, icon: Icon }) => (
                <div key={label} className="rounded-lg border border-slate-200 bg-white p-2.5 sm:p-3.5">
                  <div className="flex items-center justify-between gap-1 text-[11px] font-medium text-slate-500 sm:text-xs">
                    <span className="truncate">{label}</span> <Icon className="size-3.5 shrink-0 text-slate-400" />
                  </div>
                  <div className="mt-1.5 text-lg font-semibold tabular-nums text-slate-900 sm:text-2xl">{value}</div>
                </div>
              ))}
            </div>
            <div className="mt-3 divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white sm:mt-4">
              {rows.map((row, i) => (
                <div
                  key={row.detail}
                  className={
                    i === 3
                      ? 'hidden items-center gap-3 px-3 py-2.5 text-xs sm:flex sm:px-4 sm:text-sm'
                      : 'flex items-center gap-3 px-3 py-2.5 text-xs sm:px-4 sm:text-sm'
                  }
                >
                  <span className="hidden size-8 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-500 sm:flex">
                    <Package className="size-4" />
                  </span>
                  <div className="min-w-0 flex-1">
                    <div className="truncate font-medium text-slate-900">{row.who}</div>
                    <div className="truncate text-slate-500">
                      {row.type} · {row.detail}
                    </div>
                  </div>
                  <span className="hidden shrink-0 text-slate-500 md:block">{row.where}</span>
                  <div className="flex shrink-0 items-center gap-1.5">
                    {row.overdue && (
                      <span className={badgeClass(OVERDUE_STYLE.tone, 'max-sm:hidden')}>{OVERDUE_STYLE.label}</span>
                    )}
                    <StatusBadge status={row.status} />
                  </div>
                </div>
              ))}
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
