/**
 * The bar chart every report draws (@nivo/bar, SVG). Loaded only by the Reports page, in its own chunk: nothing
 * else imports this file statically. The chart is one image to assistive technology (its name says which table
 * beside it holds the numbers; the reading describes it); bars are not tab stops, the table is the accessible form.
 */
import { ResponsiveBar, type BarCustomLayerProps, type BarDatum, type BarLayer } from '@nivo/bar';
import { countTicks } from './report-data';
import { textColorOn } from './report-palette';

export interface ReportBarChartProps {
  /** accessible name of the chart image */
  label: string;
  /** id of the one-line reading that describes it */
  describedBy: string;
  data: BarDatum[];
  keys: readonly string[];
  indexBy: string;
  colors: readonly string[];
  layout?: 'vertical' | 'horizontal';
  groupMode?: 'stacked' | 'grouped';
  /** the value axis' title */
  valueLegend: string;
  height?: number;
  /** a second value per bar drawn as a whisker above it (the 90th percentile over a median bar) */
  whisker?: (index: string | number, key: string | number) => number | null;
  /** the values are counts: whole-number ticks only */
  counts?: boolean;
}

const THEME = {
  text: { fontSize: 12, fill: '#1d2430' },
  axis: { legend: { text: { fontSize: 12, fontWeight: 600, fill: '#1d2430' } }, ticks: { text: { fontSize: 11, fill: '#1d2430' } } },
  grid: { line: { stroke: '#e2e7ee' } },
};

const shorten = (text: string | number, max: number) => {
  const value = String(text);
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
};

function whiskerLayer(whisker: NonNullable<ReportBarChartProps['whisker']>) {
  return function Whiskers({ bars, yScale }: BarCustomLayerProps<BarDatum>) {
    const scale = yScale as (value: number) => number;
    return (
      <g aria-hidden="true">
        {bars.map((bar) => {
          const value = whisker(bar.data.indexValue, bar.data.id);
          if (value === null || bar.width < 2) return null;
          const y = scale(value);
          const middle = bar.x + bar.width / 2;
          const half = Math.max(3, bar.width * 0.3);
          return (
            <g key={bar.key}>
              <line x1={middle} x2={middle} y1={bar.y} y2={y} stroke="#1d2430" strokeWidth={1.5} />
              <line x1={middle - half} x2={middle + half} y1={y} y2={y} stroke="#1d2430" strokeWidth={2.5} />
            </g>
          );
        })}
      </g>
    );
  };
}

export function ReportBarChart({
  label, describedBy, data, keys, indexBy, colors, layout = 'vertical', groupMode = 'stacked', valueLegend, height, whisker, counts,
}: ReportBarChartProps) {
  const horizontal = layout === 'horizontal';
  // Horizontal bars read top down in the table's order (nivo draws the first row at the bottom); their height follows the rows.
  const rows = horizontal ? [...data].reverse() : data;
  const chartHeight = height ?? (horizontal ? Math.max(140, 64 + data.length * 36) : 300);
  const colorOf = new Map(keys.map((key, i) => [key, colors[i]]));
  const layers: BarLayer<BarDatum>[] = ['grid', 'axes', 'bars', 'markers'];
  if (whisker) layers.push(whiskerLayer(whisker));
  const maxWhisker = whisker ? Math.max(0, ...data.flatMap((row) => keys.map((key) => whisker(row[indexBy], key) ?? 0))) : 0;
  const valueTicks = counts ? countTicks(Math.max(1, ...data.map((row) => (groupMode === 'stacked'
    ? keys.reduce((sum, key) => sum + Number(row[key] ?? 0), 0)
    : Math.max(0, ...keys.map((key) => Number(row[key] ?? 0))))))) : undefined;
  return (
    <div className="report-chart" style={{ height: chartHeight }}>
      <ResponsiveBar
        data={rows}
        keys={[...keys]}
        indexBy={indexBy}
        layout={layout}
        groupMode={groupMode}
        colors={(bar) => colorOf.get(String(bar.id)) ?? '#999999'}
        margin={horizontal ? { top: 8, right: 24, bottom: 48, left: 190 } : { top: 16, right: 16, bottom: 56, left: 56 }}
        padding={0.25}
        innerPadding={groupMode === 'grouped' ? 2 : 0}
        valueScale={{
          type: 'linear', nice: !valueTicks,
          ...(valueTicks ? { max: valueTicks.at(-1) } : {}),
          ...(maxWhisker ? { max: Math.max(maxWhisker, ...data.flatMap((row) => keys.map((key) => Number(row[key] ?? 0)))) * 1.05 } : {}),
        }}
        gridXValues={horizontal ? valueTicks : undefined}
        gridYValues={horizontal ? undefined : valueTicks}
        enableGridX={horizontal}
        enableGridY={!horizontal}
        axisBottom={{
          legend: horizontal ? valueLegend : undefined, legendPosition: 'middle', legendOffset: 38,
          format: horizontal ? undefined : (value: string | number) => shorten(value, 14),
          tickValues: horizontal ? valueTicks : undefined,
          tickRotation: !horizontal && data.length > 8 ? -35 : 0,
        }}
        axisLeft={{
          legend: horizontal ? undefined : valueLegend, legendPosition: 'middle', legendOffset: -44,
          format: horizontal ? (value: string | number) => shorten(value, 28) : undefined,
          tickValues: horizontal ? undefined : valueTicks,
        }}
        // Over a median bar the whisker would cross the label: the numbers are in the table.
        enableLabel={!whisker}
        valueFormat={(value: number) => String(Math.round(value * 10) / 10)}
        labelSkipWidth={18}
        labelSkipHeight={14}
        labelTextColor={(bar: { color: string }) => textColorOn(bar.color)}
        layers={layers}
        theme={THEME}
        animate={false}
        role="img"
        ariaLabel={label}
        ariaDescribedBy={describedBy}
        isFocusable={false}
      />
    </div>
  );
}
