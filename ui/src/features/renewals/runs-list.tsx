import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert } from '../../components/ui/alert';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Loading } from '../../components/ui/loading';
import { queryKeys } from '../../lib/query-keys';
import { isActiveRun } from './renewal-labels';
import { getRuns, useRunControl, type RenewalRun } from './renewals-api';
import { RunCard } from './run-card';

type Asked = { run: RenewalRun; action: 'cancel' | 'close-asking' };

const QUESTIONS: Record<Asked['action'], { message: (run: RenewalRun) => string; confirm: string }> = {
  cancel: {
    message: (run) => `Cancel the renewal for ${run.policyYear.label}? Certificates it has not renewed yet stay as they are; those already renewed stay renewed.`,
    confirm: 'Cancel run',
  },
  'close-asking': {
    message: (run) => `Stop waiting for answers for ${run.policyYear.label}? Certificates nobody answered for are not renewed; those answered "yes" are renewed now.`,
    confirm: 'Stop waiting',
  },
};

/**
 * The runs, newest first. The renewing happens in the worker, not in a request the page makes: while a run moves,
 * the list is read again every second so its bar moves; once every run has ended, it stops.
 */
export function RunsList({ focusRunId }: { focusRunId: number | null }) {
  const runs = useQuery({
    queryKey: queryKeys.renewals.runs,
    queryFn: ({ signal }) => getRuns(signal),
    refetchInterval: (query) => (query.state.data?.some(isActiveRun) ? 1000 : false),
  });
  const [asked, setAsked] = useState<Asked | null>(null);
  const control = useRunControl();
  useCandidatesReadAgainWhenARunEnds(runs.data);

  const confirm = () => {
    if (!asked) return;
    control.mutate({ runId: asked.run.id, action: asked.action }, { onSuccess: () => setAsked(null) });
  };

  return (
    <section aria-labelledby="renewal-runs-heading" className="renewal-runs">
      <h2 id="renewal-runs-heading">Renewal runs</h2>
      {runs.status === 'pending' && <Loading />}
      {runs.status === 'error' && <Alert kind="error">{runs.error.message}</Alert>}
      {runs.data?.length === 0 && <p className="empty">No renewal run yet.</p>}
      {runs.data?.map((run) => (
        <RunCard key={run.id} run={run} focused={run.id === focusRunId} onConfirm={(r, action) => { control.reset(); setAsked({ run: r, action }); }} />
      ))}
      <ConfirmDialog open={!!asked} message={asked ? QUESTIONS[asked.action].message(asked.run) : ''} confirmLabel={asked ? QUESTIONS[asked.action].confirm : ''}
        cancelLabel="Keep going" busy={control.isPending} error={control.isError ? control.error.message : null}
        onConfirm={confirm} onCancel={() => setAsked(null)} />
    </section>
  );
}

/**
 * A run that ended changed what the list of certificates says of those it renewed ("Already renewed", no longer
 * ticked for the next run): the list is read again then, as it is when a run starts.
 */
function useCandidatesReadAgainWhenARunEnds(runs: RenewalRun[] | undefined) {
  const queryClient = useQueryClient();
  const active = useRef<ReadonlySet<number> | null>(null);
  useEffect(() => {
    if (!runs) return;
    const now = new Set(runs.filter(isActiveRun).map((run) => run.id));
    const ended = active.current && [...active.current].some((id) => !now.has(id));
    active.current = now;
    if (ended) void queryClient.invalidateQueries({ queryKey: queryKeys.renewals.candidatesAll });
  }, [runs, queryClient]);
}
