import type { Analytics } from '@contract';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { humanize } from '@/lib/format';
import { useTheme, type Theme } from '@/lib/theme';
import { ChartCard } from './ChartCard';
import { formatDay, formatHour } from './format';

const INDIGO = '#6366f1';
const SKY = '#0ea5e9';
const EMERALD = '#10b981';
const AMBER = '#f59e0b';

/**
 * Axis, grid and tooltip colours of the theme on screen (slate 500/200/100 light, 400/700/800 dark):
 * the chart library draws SVG attributes, which take colours rather than CSS variables.
 */
const CHART_STYLES = {
  light: {
    axis: { fontSize: 12, fill: '#64748b' },
    grid: '#e2e8f0',
    tooltip: {
      cursor: { fill: '#f1f5f9' },
      contentStyle: { borderRadius: 8, borderColor: '#e2e8f0', fontSize: 13 },
    },
  },
  dark: {
    axis: { fontSize: 12, fill: '#90a1b9' },
    grid: '#314158',
    tooltip: {
      cursor: { fill: '#1d293d' },
      contentStyle: {
        borderRadius: 8,
        borderColor: '#314158',
        backgroundColor: '#0f172b',
        color: '#f8fafc',
        fontSize: 13,
      },
      labelStyle: { color: '#f8fafc' },
    },
  },
} satisfies Record<Theme, unknown>;

function useChartStyle(): (typeof CHART_STYLES)[Theme] {
  return CHART_STYLES[useTheme()];
}

type Named = Array<{ name: string; count: number }>;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** Names and counts as horizontal bars: the longest bar is the answer. */
function NamedBars({ data, color, label }: { data: Named; color: string; label: (name: string) => string }) {
  const { axis, grid, tooltip } = useChartStyle();
  const rows = data.map((d) => ({ name: label(d.name), count: d.count }));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 8 }}>
        <CartesianGrid horizontal={false} stroke={grid} />
        <XAxis type="number" allowDecimals={false} tick={axis} axisLine={false} tickLine={false} />
        <YAxis type="category" dataKey="name" width={96} tick={axis} axisLine={false} tickLine={false} />
        <Tooltip {...tooltip} />
        <Bar
          dataKey="count"
          name="Items"
          fill={color}
          radius={[0, 4, 4, 0]}
          maxBarSize={28}
          isAnimationActive={false}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}

export function PerDayChart({ data }: { data: Analytics['perDay'] }) {
  const total = data.reduce((s, d) => s + d.count, 0);
  const busiest = data.reduce<Analytics['perDay'][number] | undefined>(
    (b, d) => (!b || d.count > b.count ? d : b),
    undefined,
  );
  const rows = data.map((d) => ({ label: formatDay(d.date), count: d.count }));
  const { axis, grid, tooltip } = useChartStyle();
  return (
    <ChartCard
      title="Packages per day"
      description={`${plural(total, 'item')} over ${plural(data.length, 'day')}`}
      summary={`Bar chart of items per day: ${plural(total, 'item')} in total${
        busiest && busiest.count > 0 ? `, most on ${formatDay(busiest.date, true)} (${busiest.count})` : ''
      }.`}
      columns={['Day', 'Items']}
      rows={data.map((d) => [formatDay(d.date, true), d.count])}
      className="lg:col-span-2"
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid vertical={false} stroke={grid} />
          <XAxis dataKey="label" tick={axis} axisLine={false} tickLine={false} minTickGap={16} />
          <YAxis allowDecimals={false} tick={axis} axisLine={false} tickLine={false} />
          <Tooltip {...tooltip} />
          <Bar
            dataKey="count"
            name="Items"
            fill={INDIGO}
            radius={[4, 4, 0, 0]}
            maxBarSize={40}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

function topOf(data: Named, label: (name: string) => string) {
  return data.length > 0 ? `, most from ${label(data[0]!.name)} (${data[0]!.count})` : '';
}

export function ByCourierChart({ data }: { data: Named }) {
  return (
    <ChartCard
      title="By courier"
      summary={`Bar chart of items by courier: ${plural(data.length, 'courier')}${topOf(data, String)}.`}
      columns={['Courier', 'Items']}
      rows={data.map((d) => [d.name, d.count])}
    >
      <NamedBars data={data} color={SKY} label={String} />
    </ChartCard>
  );
}

export function ByTypeChart({ data }: { data: Named }) {
  return (
    <ChartCard
      title="By type"
      summary={`Bar chart of items by type: ${plural(data.length, 'type')}${topOf(data, humanize)}.`}
      columns={['Type', 'Items']}
      rows={data.map((d) => [humanize(d.name), d.count])}
    >
      <NamedBars data={data} color={EMERALD} label={humanize} />
    </ChartCard>
  );
}

export function BusiestHoursChart({ data }: { data: Analytics['busiestHours'] }) {
  const peak = data.reduce<Analytics['busiestHours'][number] | undefined>(
    (b, d) => (!b || d.count > b.count ? d : b),
    undefined,
  );
  const rows = data.map((d) => ({ label: formatHour(d.hour), count: d.count }));
  const { axis, grid, tooltip } = useChartStyle();
  return (
    <ChartCard
      title="Busiest hours"
      description="Arrivals by hour of the day, in the organization's timezone"
      summary={`Bar chart of arrivals by hour${peak && peak.count > 0 ? `: busiest at ${formatHour(peak.hour)} (${peak.count})` : ''}.`}
      columns={['Hour', 'Items']}
      rows={data.map((d) => [formatHour(d.hour), d.count])}
      className="lg:col-span-2"
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid vertical={false} stroke={grid} />
          <XAxis
            dataKey="label"
            tick={axis}
            axisLine={false}
            tickLine={false}
            interval="preserveStartEnd"
            minTickGap={12}
          />
          <YAxis allowDecimals={false} tick={axis} axisLine={false} tickLine={false} />
          <Tooltip {...tooltip} />
          <Bar dataKey="count" name="Items" fill={AMBER} radius={[4, 4, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}
