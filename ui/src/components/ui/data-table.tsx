import type { ReactNode } from 'react';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  className?: string;
}

interface DataTableProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  labelledBy?: string;
  label?: string;
}

/** A bordered table; cells carry their column name for the stacked layout on narrow screens. */
export function DataTable<Row>({ columns, rows, rowKey, labelledBy, label }: DataTableProps<Row>) {
  return (
    <div className="table-wrap">
      <table className="data-table" aria-labelledby={labelledBy} aria-label={labelledBy ? undefined : label}>
        <thead>
          <tr>{columns.map((column) => <th key={column.header} scope="col" className={column.className}>{column.header}</th>)}</tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.header} data-label={column.header} className={column.className}>{column.cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
