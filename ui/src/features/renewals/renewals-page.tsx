import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/ui/alert';
import { Loading } from '../../components/ui/loading';
import { queryKeys } from '../../lib/query-keys';
import { CandidateFilters, type FilterState } from './candidate-filters';
import { CandidatesSection } from './candidates-section';
import { RefusalBanner } from './refusal-banner';
import { getCandidates, type CandidateFilter, type Candidates } from './renewals-api';
import { RunsList } from './runs-list';
import { StartRunForm } from './start-run-form';
import { useDebouncedValue } from './use-debounced-value';

/**
 * What a run is asked to renew. The rows shown are what the administrator ticked; when the list is cut short and
 * nothing is narrowed or unticked, the ids are left out so the run takes every renewable certificate of the window,
 * the ones not shown too.
 */
function selection(candidates: Candidates, unticked: ReadonlySet<number>, narrowed: boolean) {
  const renewable = candidates.data.filter((c) => c.verdict === 'renew');
  const ticked = renewable.filter((c) => !unticked.has(c.requestId)).map((c) => c.requestId);
  if (candidates.truncated && !narrowed && ticked.length === renewable.length) return { requestIds: undefined, count: candidates.summary.renew };
  return { requestIds: ticked, count: ticked.length };
}

/**
 * `/manage/renewals`: renewal season. The certificates whose coverage ends with a policy year, what the rules say of
 * each, and the runs that reissue them for the next year (at once, or after asking each requester).
 */
export function RenewalsPage() {
  const [filter, setFilter] = useState<FilterState>({ q: '', certificateType: '' });
  const q = useDebouncedValue(filter.q.trim(), 300);
  const query: CandidateFilter = {
    policyYearId: filter.policyYearId, from: filter.from, to: filter.to, q: q || undefined,
    certificateType: (filter.certificateType || undefined) as CandidateFilter['certificateType'],
  };
  const candidates = useQuery({
    queryKey: queryKeys.renewals.candidates(query),
    queryFn: ({ signal }) => getCandidates(query, signal),
    // The rows of the previous choice stay while the new ones load: the table does not jump with every keystroke.
    placeholderData: keepPreviousData,
  });
  const [unticked, setUnticked] = useState<ReadonlySet<number>>(new Set());
  const [startedRunId, setStartedRunId] = useState<number | null>(null);
  const data = candidates.data;
  const chosen = data ? selection(data, unticked, !!(q || filter.certificateType)) : null;

  const tick = (requestId: number, ticked: boolean) => setUnticked((before) => {
    const next = new Set(before);
    if (ticked) next.delete(requestId); else next.add(requestId);
    return next;
  });

  return (
    <section className="page renewals-page">
      <h1>Renewals</h1>
      <p>Certificates whose coverage ends with the policy year are reissued for the next one: pick the year, check what the rules say of each, and start a run.</p>
      <CandidateFilters filter={filter} onChange={setFilter} candidates={data} />
      {candidates.status === 'pending' && <Loading />}
      {candidates.status === 'error' && <Alert kind="error">{candidates.error.message}</Alert>}
      {data?.refusal && <RefusalBanner refusal={data.refusal} />}
      {data && (
        <CandidatesSection candidates={data} unticked={unticked} onTick={tick}
          onTickAll={(all) => setUnticked(all ? new Set() : new Set(data.data.filter((c) => c.verdict === 'renew').map((c) => c.requestId)))} />
      )}
      {data && chosen && (
        <StartRunForm
          target={data.policyYear && data.window ? { policyYearId: data.policyYear.id, from: data.window.from, to: data.window.to } : null}
          requestIds={chosen.requestIds} selectedCount={chosen.count}
          // Until the rows of a new choice arrive, a run would start on the old one.
          blocked={data.refusal ? 'No run can start: see the message above.' : (candidates.isPlaceholderData ? 'Loading the certificates of this choice…' : null)}
          onStarted={(run) => { setUnticked(new Set()); setStartedRunId(run.id); }} />
      )}
      <RunsList focusRunId={startedRunId} />
    </section>
  );
}
