import { MESSAGES } from '../../../../../domain';
import { DataTable } from '../../../components/ui/data-table';
import { displayDateTime } from '../../../lib/format';
import type { ActivityRecord } from '../../../types/api';
import { resendableTemplateTitle } from '../lib/failed-email';
import { SendAgainButton } from './send-again-button';

const recipientsText = (recipients: ActivityRecord['recipients']) =>
  (Array.isArray(recipients) ? recipients.join(', ') : recipients) || '—';

interface RequestAuditTableProps {
  activity: readonly ActivityRecord[];
  requestId: number;
}

/**
 * Request Audit Details: Date, Activity Type, Activity, Performed By, Email Recipients. A failed email's row
 * offers Send again (the trail is shown to administrators only).
 */
export function RequestAuditTable({ activity, requestId }: RequestAuditTableProps) {
  if (activity.length === 0) return <p className="empty">{MESSAGES.emptyActivity}</p>;
  return (
    <DataTable label="Request Audit Details" rows={activity} rowKey={(a) => a.id} columns={[
      { header: 'Date', className: 'cell--nowrap', cell: (a) => displayDateTime(a.date) },
      { header: 'Activity Type', cell: (a) => a.activityType },
      { header: 'Activity', cell: (a) => <ActivityText activity={a} requestId={requestId} /> },
      { header: 'Performed By', cell: (a) => a.performedBy },
      { header: 'Email Recipients', cell: (a) => recipientsText(a.recipients) },
    ]} />
  );
}

function ActivityText({ activity, requestId }: { activity: ActivityRecord; requestId: number }) {
  const templateTitle = resendableTemplateTitle(activity);
  if (!templateTitle) return <>{activity.activityText}</>;
  return (
    <>
      {activity.activityText}
      <SendAgainButton requestId={requestId} templateTitle={templateTitle} retryOf={activity.id} />
    </>
  );
}
