import { Alert } from '../../components/ui/alert';
import { Loading } from '../../components/ui/loading';
import { ApiError } from '../../lib/api-error';
import { useSimulation, type RuleBody } from './instant-api';
import { SimulationResultView } from './simulation-result';

const failureText = (error: unknown) => {
  if (error instanceof ApiError && error.code === 404) return 'The simulator is not available.';
  if (error instanceof ApiError && error.hasFieldErrors) return Object.values(error.errors).join(' ');
  return error instanceof Error ? error.message : String(error);
};

/**
 * "Simulate over the last 12 months": the rule as it stands in the editor (saved or not), run over the office's
 * requests of its types, and what it would have done.
 */
export function SimulationPanel({ body }: { body: () => RuleBody }) {
  const simulate = useSimulation();
  const run = () => {
    const { kinds, conditions, dailyCap } = body();
    simulate.mutate({ kinds, conditions, ...(dailyCap === undefined ? {} : { dailyCap }) });
  };
  return (
    <section className="instant-simulation" aria-labelledby="simulation-heading">
      <h3 id="simulation-heading">Simulation</h3>
      <p className="muted">What this rule, as written above, would have issued over the last 12 months of requests, and where the office decided otherwise.</p>
      <div className="button-row">
        <button type="button" className="button button--secondary" disabled={simulate.isPending} onClick={run}>Simulate over the last 12 months</button>
      </div>
      <div aria-live="polite">
        {simulate.isPending && <Loading />}
        {simulate.isError && <Alert kind="error">{failureText(simulate.error)}</Alert>}
        {simulate.data && !simulate.isPending && <SimulationResultView result={simulate.data} />}
      </div>
    </section>
  );
}
