import type { ReactNode } from 'react';
import { MESSAGES } from '../../../../../domain';
import { DataTable } from '../../../components/ui/data-table';
import { displayDate } from '../../../lib/format';
import type { DocumentRecord } from '../../../types/api';
import { DownloadDocumentButton } from './download-document-button';

interface DocumentsTableProps {
  documents: readonly DocumentRecord[];
  /** Extra actions next to Download (e.g. Remove on the form). */
  actions?: (document: DocumentRecord) => ReactNode;
}

/** Supporting documents: Name, Description, Upload Date, Download. */
export function DocumentsTable({ documents, actions }: DocumentsTableProps) {
  if (documents.length === 0) return <p className="empty">{MESSAGES.emptyDocuments}</p>;
  return (
    <DataTable label="Supporting Documents" rows={documents} rowKey={(d) => d.id} columns={[
      { header: 'Name', cell: (d) => d.name },
      { header: 'Description', cell: (d) => d.description || '—' },
      { header: 'Upload Date', cell: (d) => displayDate(d.createdAt) },
      {
        header: 'Action',
        className: 'cell--action',
        cell: (d) => <div className="button-row button-row--tight"><DownloadDocumentButton document={d} />{actions?.(d)}</div>,
      },
    ]} />
  );
}
