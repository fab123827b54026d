import { ApiError } from '../lib/api-error';
import { UI_TEXT } from '../lib/ui-text';
import { Alert } from './ui/alert';

/** A command refused because the request changed since the page loaded it (409 Conflict). */
export const isStaleRequest = (error: unknown): boolean => error instanceof ApiError && error.code === 409;

/** Says so, and offers the reload the message advises (autosave has already kept the form's values). */
export function StaleRequestAlert() {
  return (
    <Alert kind="error">
      <p className="alert__text">{UI_TEXT.staleRequest}</p>
      <button type="button" className="button button--secondary button--small" onClick={() => window.location.reload()}>
        {UI_TEXT.reloadPage}
      </button>
    </Alert>
  );
}
