import type { ReactNode } from 'react';
import { MESSAGES } from '../../../../../domain';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { displayDate } from '../../../lib/format';
import type { DocumentRecord } from '../../../types/api';
import { DownloadDocumentButton } from './download-document-button';

interface DocumentsTableProps {
  documents: readonly DocumentRecord[];
  /**
   * The Action column (Edit, Delete, Remove). Left out once the request is approved or in a terminal status
   * (spec 1 §2): the column is not rendered at all then. Download stays in its own column.
   */
  actions?: (document: DocumentRecord) => ReactNode;
  /** Administrators see which documents go out with the approval email. */
  showAttachment?: boolean;
}

/** Supporting documents: Name, Description, Upload Date, [Approval Email], File, [Action]. */
export function DocumentsTable({ documents, actions, showAttachment }: DocumentsTableProps) {
  if (documents.length === 0) return <p className="empty">{MESSAGES.emptyDocuments}</p>;
  const columns: Column<DocumentRecord>[] = [
    { header: 'Name', cell: (d) => d.name },
    { header: 'Description', cell: (d) => d.description || '—' },
    { header: 'Upload Date', cell: (d) => displayDate(d.createdAt) },
    ...(showAttachment ? [{ header: 'Approval Email', cell: (d: DocumentRecord) => (d.origin === 'system' ? 'Generated letter' : d.isAttachment ? 'Attached' : '—') }] : []),
    { header: 'File', className: 'cell--action', cell: (d) => <DownloadDocumentButton document={d} /> },
    ...(actions ? [{ header: 'Action', className: 'cell--action', cell: (d: DocumentRecord) => <div className="button-row button-row--tight">{actions(d)}</div> }] : []),
  ];
  return <DataTable label="Supporting Documents" rows={documents} rowKey={(d) => d.id} columns={columns} />;
}
