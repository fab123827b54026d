import { progressText } from './renewal-labels';
import type { RenewalRun } from './renewals-api';

/** The bar (what is behind the run, out of all its certificates) and the counts it is made of, in words. */
export function RunProgress({ run, label }: { run: RenewalRun; label: string }) {
  const { percent } = run.progress;
  return (
    <div className="renewal-progress">
      <div className="renewal-progress__bar" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}
        aria-valuetext={`${percent}% of ${run.progress.total.toLocaleString('en-US')}`}>
        <div className="renewal-progress__fill" style={{ width: `${percent}%` }} />
      </div>
      <p className="renewal-progress__text"><strong>{percent}%</strong> of {run.progress.total.toLocaleString('en-US')} · {progressText(run)}</p>
    </div>
  );
}
