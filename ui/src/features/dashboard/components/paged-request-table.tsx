import { useId } from 'react';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { Pager } from '../../../components/ui/pager';
import type { RequestRecord } from '../../../types/api';
import { PAGE_SIZE } from '../api/get-requests';
import type { RequestPage } from '../hooks/use-request-page';

interface PagedRequestTableProps {
  page: RequestPage;
  columns: readonly Column<RequestRecord>[];
  /** the group heading (spec 1 §2 Dashboard); without one the table is named by `label` */
  heading?: string;
  label: string;
}

/** One dashboard table: a group heading, one page of rows and its pager. Nothing is drawn before the first page arrives. */
export function PagedRequestTable({ page, columns, heading, label }: PagedRequestTableProps) {
  const headingId = useId();
  if (!page.data) return null;
  const table = (
    <>
      <DataTable columns={columns} rows={page.data.data} rowKey={(r) => r.id}
        labelledBy={heading ? headingId : undefined} label={heading ? undefined : label} />
      <Pager label={heading ?? label} total={page.data.total} skip={page.data.skip} pageSize={PAGE_SIZE} onChange={page.goTo} />
    </>
  );
  if (!heading) return table;
  return (
    <section className="request-group">
      <h2 id={headingId} className="request-group__heading">{heading}</h2>
      {table}
    </section>
  );
}
