import { lazy, Suspense, type ReactNode } from 'react';
import { Loading } from '../../components/ui/loading';
import { rowTotal, type Pivot } from './report-data';
import { seriesColor } from './report-palette';
import type { ReportBarChartProps } from './report-charts';

// The chart library arrives with the first chart drawn, not with the page (see docs/REPORTS.md for the sizes).
const ReportBarChart = lazy(() => import('./report-charts').then((module) => ({ default: module.ReportBarChart })));

interface ChartSectionProps {
  id: string;
  title: string;
  reading: string;
  pivot: Pivot;
  indexBy: string;
  chart: Pick<ReportBarChartProps, 'layout' | 'groupMode' | 'valueLegend' | 'height' | 'whisker' | 'counts'>;
  /** spans the whole row of cards (a wide table under the chart) */
  wide?: boolean;
  /** how a value is written in the table */
  format?: (value: number | string | undefined) => string;
  /** adds a Total column (counts that add up) */
  total?: boolean;
  /** extra columns after the series, per row */
  extra?: { header: string; cell: (row: Pivot['rows'][number]) => string }[];
  /** a table of its own instead of the pivot's (when the chart shows fewer numbers than the table should) */
  table?: ReactNode;
  children?: ReactNode;
}

const count = (value: number | string | undefined) => (value === undefined ? '0' : Number(value).toLocaleString('en-US'));

/** One report: its heading, the one-line reading, the chart with its legend, and the same numbers as a table. */
export function ChartSection({ id, title, reading, pivot, indexBy, chart, format = count, total, extra = [], table, wide, children }: ChartSectionProps) {
  const colors = pivot.keys.map((_, i) => seriesColor(i));
  const empty = pivot.rows.length === 0 || pivot.keys.length === 0;
  return (
    <section className={`report card${wide ? ' report--wide' : ''}`} aria-labelledby={`${id}-heading`} data-report={id}>
      <h2 id={`${id}-heading`}>{title}</h2>
      <p id={`${id}-reading`} className="report__reading">{reading}</p>
      <div className="report__body">
        <figure className="report__figure">
          {empty ? <p className="empty">Nothing to draw in this range.</p> : (
            <>
              <Suspense fallback={<Loading />}>
                <ReportBarChart label={`${title}: chart (numbers in the table "${title}")`} describedBy={`${id}-reading`}
                  data={pivot.rows} keys={pivot.keys} indexBy={indexBy} colors={colors} {...chart} />
              </Suspense>
              <ul className="report__legend" aria-label={`${title}: legend`}>
                {pivot.keys.map((key, i) => (
                  <li key={key}><span className="report__swatch" style={{ background: colors[i] }} aria-hidden="true" />{key}</li>
                ))}
                {chart.whisker && <li><span className="report__swatch report__swatch--whisker" aria-hidden="true" />90th percentile</li>}
              </ul>
            </>
          )}
        </figure>
        {table ?? <div className="table-wrap report__table" role="region" aria-label={`${title}: table`} tabIndex={0}>
          <table className="data-table">
            <caption>{title}</caption>
            <thead>
              <tr>
                <th scope="col">{pivot.indexHeader}</th>
                {pivot.keys.map((key) => <th key={key} scope="col" className="cell--number">{key}</th>)}
                {extra.map((column) => <th key={column.header} scope="col" className="cell--number">{column.header}</th>)}
                {total && <th scope="col" className="cell--number">Total</th>}
              </tr>
            </thead>
            <tbody>
              {pivot.rows.map((row) => (
                <tr key={String(row[indexBy])}>
                  <th scope="row" data-label={pivot.indexHeader}>{row[indexBy]}</th>
                  {pivot.keys.map((key) => <td key={key} data-label={key} className="cell--number">{format(row[key])}</td>)}
                  {extra.map((column) => <td key={column.header} data-label={column.header} className="cell--number">{column.cell(row)}</td>)}
                  {total && <td data-label="Total" className="cell--number">{count(rowTotal(row, pivot.keys))}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>}
      </div>
      {children}
    </section>
  );
}
