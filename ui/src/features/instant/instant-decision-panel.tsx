import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { instantActorName } from '../../../../domain';
import { displayDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { queryKeys } from '../../lib/query-keys';
import { getInstantDecision, type InstantDecision } from './instant-api';

function CheckLine({ decision }: { decision: InstantDecision }) {
  if (decision.checkedAt) return <p className="muted">Checked by {decision.checkedBy ?? 'an administrator'} on {displayDateTime(decision.checkedAt)}.</p>;
  if (!decision.checkRequired) return null;
  return <p>Waiting on <Link to={paths.manage.instantChecks.getHref()}>Check After Issue</Link>.</p>;
}

/**
 * Administrators, on a certificate request's page: the rule that issued it, or the condition or guard that left it to
 * a person. Nothing when no rule was asked (the office's switch was off). Under the request's own key: the live
 * events that refresh the request refresh it.
 */
export function InstantDecisionPanel({ requestId }: { requestId: number }) {
  const decision = useQuery({ queryKey: queryKeys.requests.instantDecision(requestId), queryFn: ({ signal }) => getInstantDecision(requestId, signal) });
  const d = decision.data;
  if (!d) return null;
  return (
    <section className="details-section instant-decision" aria-labelledby="instant-decision-heading">
      <h2 id="instant-decision-heading" className="details-section__title">Instant certificate</h2>
      {d.outcome === 'issued'
        ? <p>Issued by {instantActorName(d.ruleName ?? 'a rule', d.ruleVersion ?? 1)} on {displayDateTime(d.decidedAt)}.</p>
        : <p>Waiting for a person: {d.stoppedBy}</p>}
      {d.outcome === 'issued' && <CheckLine decision={d} />}
    </section>
  );
}
