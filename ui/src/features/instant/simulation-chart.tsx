/**
 * The simulation's bar chart (@nivo/bar, as the Reports page draws): months along, one stacked colour per certificate
 * type. Loaded only when a simulation has an answer, in its own chunk. One image to assistive technology: the table
 * beside it holds the same numbers.
 */
import { ResponsiveBar, type BarDatum } from '@nivo/bar';

export interface SimulationChartProps {
  label: string;
  describedBy: string;
  rows: BarDatum[];
  kinds: readonly string[];
  colors: readonly string[];
}

const THEME = {
  text: { fontSize: 12, fill: '#1d2430' },
  axis: { legend: { text: { fontSize: 12, fontWeight: 600, fill: '#1d2430' } }, ticks: { text: { fontSize: 11, fill: '#1d2430' } } },
  grid: { line: { stroke: '#e2e7ee' } },
};

export function SimulationChart({ label, describedBy, rows, kinds, colors }: SimulationChartProps) {
  const colorOf = new Map(kinds.map((kind, i) => [kind, colors[i]]));
  return (
    <div className="report-chart" style={{ height: 280 }}>
      <ResponsiveBar data={rows} keys={[...kinds]} indexBy="month" groupMode="stacked"
        colors={(bar) => colorOf.get(String(bar.id)) ?? '#999999'}
        margin={{ top: 16, right: 16, bottom: 56, left: 56 }} padding={0.25}
        valueScale={{ type: 'linear', nice: true }} enableGridY
        axisBottom={{ tickRotation: rows.length > 6 ? -35 : 0 }}
        axisLeft={{ legend: 'Would issue', legendPosition: 'middle', legendOffset: -44, format: (v: number) => (Number.isInteger(v) ? String(v) : '') }}
        enableLabel={false} animate={false} theme={THEME}
        role="img" ariaLabel={label} ariaDescribedBy={describedBy} isFocusable={false} />
    </div>
  );
}
