import { formatYear, formatYearRange } from "./format";

/**
 * The proposed period against the neighbours' dates: one bar per dated neighbour (darker the
 * more similar), the proposed earliest–latest range as a band, the central estimate as a line.
 * The figure's caption says the same in words for screen readers.
 */
export interface PeriodChartProps {
  earliest: number;
  latest: number;
  central: number;
  neighbours: { title: string; from: number; to: number; weight: number }[];
  current?: { from: number; to: number } | null;
}

const width = 560;
const rowHeight = 14;
const margin = { left: 8, right: 8, top: 22, bottom: 26 };

function niceStep(span: number): number {
  const raw = span / 5;
  const power = 10 ** Math.floor(Math.log10(Math.max(1, raw)));
  return [1, 2, 5, 10].map((factor) => factor * power).find((step) => step >= raw) ?? 10 * power;
}

export function PeriodChart({ earliest, latest, central, neighbours, current }: PeriodChartProps) {
  const years = [earliest, latest, ...neighbours.flatMap((item) => [item.from, item.to]), ...(current ? [current.from, current.to] : [])];
  const span = Math.max(10, Math.max(...years) - Math.min(...years));
  const min = Math.min(...years) - span * 0.05;
  const max = Math.max(...years) + span * 0.05;
  const plotWidth = width - margin.left - margin.right;
  const x = (year: number) => margin.left + ((year - min) / (max - min)) * plotWidth;
  const rows = neighbours.length + (current ? 1 : 0);
  const height = margin.top + rows * rowHeight + margin.bottom;
  const maxWeight = Math.max(...neighbours.map((item) => item.weight), 1e-9);
  const step = niceStep(max - min);
  const ticks: number[] = [];
  for (let tick = Math.ceil(min / step) * step; tick <= max; tick += step) ticks.push(tick);

  return (
    <figure className="mt-2">
      <svg viewBox={`0 0 ${width} ${height}`} className="w-full" role="img" aria-labelledby="period-chart-caption" data-testid="period-chart">
        <rect x={x(earliest)} y={margin.top - 6} width={Math.max(2, x(latest) - x(earliest))} height={rows * rowHeight + 6} className="fill-amber-100" />
        <line x1={x(central)} x2={x(central)} y1={margin.top - 10} y2={margin.top + rows * rowHeight} className="stroke-amber-700" strokeWidth={2} />
        <text x={x(central)} y={margin.top - 12} textAnchor="middle" className="fill-amber-900 text-[11px]">
          {formatYear(central)}
        </text>
        {neighbours.map((item, index) => (
          <g key={`${item.title}-${index}`}>
            <title>{`${item.title}: ${formatYearRange(item.from, item.to)}`}</title>
            <rect
              x={x(item.from)}
              y={margin.top + index * rowHeight + 3}
              width={Math.max(3, x(item.to) - x(item.from))}
              height={rowHeight - 6}
              rx={2}
              className="fill-stone-700"
              fillOpacity={0.25 + 0.75 * (item.weight / maxWeight)}
            />
          </g>
        ))}
        {current && (
          <rect
            x={x(current.from)}
            y={margin.top + neighbours.length * rowHeight + 3}
            width={Math.max(3, x(current.to) - x(current.from))}
            height={rowHeight - 6}
            rx={2}
            className="fill-accent-700"
          >
            <title>{`Catalogued: ${formatYearRange(current.from, current.to)}`}</title>
          </rect>
        )}
        <line x1={margin.left} x2={width - margin.right} y1={height - margin.bottom + 4} y2={height - margin.bottom + 4} className="stroke-stone-300" />
        {ticks.map((tick) => (
          <text key={tick} x={x(tick)} y={height - 8} textAnchor="middle" className="fill-stone-500 text-[10px]">
            {formatYear(tick)}
          </text>
        ))}
      </svg>
      <figcaption id="period-chart-caption" className="text-xs text-stone-600">
        Proposed {formatYearRange(earliest, latest)} (central estimate {formatYear(central)}), shaded, against the dates of {neighbours.length} dated neighbour
        {neighbours.length === 1 ? "" : "s"}
        {current ? "; the catalogued date is the last bar" : ""}.
      </figcaption>
    </figure>
  );
}
