import { useEffect, useRef, useState } from 'react';
import { Alert } from '../../components/ui/alert';
import { saveBlob } from '../../lib/download-blob';
import { displayDate, displayDateTime } from '../../lib/format';
import { isActiveRun, MODE_LABELS, RUN_STATE_LABELS } from './renewal-labels';
import { downloadRunResult, useRunControl, type RenewalRun, type RunAction } from './renewals-api';
import { RunItems } from './run-items';
import { RunProgress } from './run-progress';

interface RunCardProps {
  run: RenewalRun;
  /** the run just started: the keyboard and the eye continue here */
  focused: boolean;
  /** cancel and stop waiting are asked first, in the list's one dialog */
  onConfirm: (run: RenewalRun, action: 'cancel' | 'close-asking') => void;
}

/** One run: what it renews, its state and progress, its controls, its result and its certificates. */
export function RunCard({ run, focused, onConfirm }: RunCardProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [showItems, setShowItems] = useState(false);
  const [downloadFailed, setDownloadFailed] = useState<string | null>(null);
  const control = useRunControl();
  const headingId = `renewal-run-${run.id}`;
  const title = `Renewal for ${run.policyYear.label}`;

  useEffect(() => {
    if (!focused) return;
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus();
  }, [focused]);

  const act = (action: RunAction) => control.mutate({ runId: run.id, action });
  async function download() {
    setDownloadFailed(null);
    try { saveBlob(await downloadRunResult(run.id), `renewal-run-${run.id}-${run.policyYear.label}.xlsx`); } catch (error) {
      setDownloadFailed(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <article className="card renewal-run" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1}>{title} <span className={`renewal-run__state renewal-run__state--${run.state}`}>{RUN_STATE_LABELS[run.state]}</span></h3>
      <p className="muted renewal-run__meta">
        {MODE_LABELS[run.mode]}{run.answerBy ? ` (answer by ${displayDate(run.answerBy)})` : ''} · coverage ending {displayDate(run.window.from)} – {displayDate(run.window.to)}
        {' · '}started by {run.createdBy} on {displayDateTime(run.createdAt)}
        {run.finishedAt ? ` · ended ${displayDateTime(run.finishedAt)}` : ''}
      </p>
      <RunProgress run={run} label={`Progress of the ${title.toLowerCase()}`} />
      {control.isError && <Alert kind="error">{control.error.message}</Alert>}
      {downloadFailed && <Alert kind="error">{downloadFailed}</Alert>}
      <div className="button-row">
        {run.state === 'running' && <button type="button" className="button button--secondary" disabled={control.isPending} onClick={() => act('pause')}>Pause</button>}
        {run.state === 'paused' && <button type="button" className="button" disabled={control.isPending} onClick={() => act('resume')}>Resume</button>}
        {run.mode === 'ask' && run.state === 'asking' && (
          <button type="button" className="button button--secondary" disabled={control.isPending} onClick={() => onConfirm(run, 'close-asking')}>Stop waiting for answers</button>
        )}
        {isActiveRun(run) && <button type="button" className="button button--danger-outline" disabled={control.isPending} onClick={() => onConfirm(run, 'cancel')}>Cancel run</button>}
        <button type="button" className="button button--secondary" onClick={() => void download()}>Download result (xlsx)</button>
        <button type="button" className="link-button" aria-expanded={showItems} aria-controls={`${headingId}-items-panel`} onClick={() => setShowItems((v) => !v)}>
          {showItems ? 'Hide certificates' : 'Show certificates'}
        </button>
      </div>
      <div id={`${headingId}-items-panel`}>{showItems && <RunItems run={run} />}</div>
    </article>
  );
}
