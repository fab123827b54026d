import { MESSAGES } from '../../../../../domain';
import type { RequestRecord } from '../../../types/api';
import { DataTable, type Column } from '../../../components/ui/data-table';

interface GroupedRequestTablesProps {
  requests: readonly RequestRecord[];
  columns: readonly Column<RequestRecord>[];
  /** Group heading of a row; headings appear in the order of `groupOrder`, empty groups are left out. */
  groupOf?: (request: RequestRecord) => string;
  groupOrder?: readonly string[];
}

/** Request rows under group headings (spec 1 §2 Dashboard), or the empty-list message. */
export function GroupedRequestTables({ requests, columns, groupOf, groupOrder = [] }: GroupedRequestTablesProps) {
  if (requests.length === 0) return <p className="empty">{MESSAGES.emptyRequests}</p>;
  if (!groupOf) return <DataTable columns={columns} rows={requests} rowKey={(r) => r.id} />;

  const groups = new Map<string, RequestRecord[]>(groupOrder.map((name) => [name, []]));
  for (const request of requests) {
    const name = groupOf(request);
    groups.set(name, [...(groups.get(name) ?? []), request]);
  }
  return (
    <>
      {[...groups].filter(([, rows]) => rows.length > 0).map(([name, rows], index) => (
        <section key={name} className="request-group">
          <h2 id={`group-${index}`} className="request-group__heading">{name}</h2>
          <DataTable columns={columns} rows={rows} rowKey={(r) => r.id} labelledBy={`group-${index}`} />
        </section>
      ))}
    </>
  );
}
