import { STALE_LETTER_LABEL } from '../../../domain';
import { displayDate } from '../lib/format';

/** "Letter may be out of date", with the day of the upload that raised it. */
export function StaleLetterBadge({ since }: { since: string }) {
  return (
    <span className="badge badge--warning" title={`Since the CS-STARS upload of ${displayDate(since)}`}>
      {STALE_LETTER_LABEL}
    </span>
  );
}
