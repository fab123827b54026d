import { MESSAGES } from '../../../../../domain';
import { DataTable } from '../../../components/ui/data-table';
import { displayDateTime } from '../../../lib/format';
import type { ActivityRecord } from '../../../types/api';

const recipientsText = (recipients: ActivityRecord['recipients']) =>
  (Array.isArray(recipients) ? recipients.join(', ') : recipients) || '—';

/** Request Audit Details: Date, Activity Type, Activity, Performed By, Email Recipients. */
export function RequestAuditTable({ activity }: { activity: readonly ActivityRecord[] }) {
  if (activity.length === 0) return <p className="empty">{MESSAGES.emptyActivity}</p>;
  return (
    <DataTable label="Request Audit Details" rows={activity} rowKey={(a) => a.id} columns={[
      { header: 'Date', className: 'cell--nowrap', cell: (a) => displayDateTime(a.date) },
      { header: 'Activity Type', cell: (a) => a.activityType },
      { header: 'Activity', cell: (a) => a.activityText },
      { header: 'Performed By', cell: (a) => a.performedBy },
      { header: 'Email Recipients', cell: (a) => recipientsText(a.recipients) },
    ]} />
  );
}
