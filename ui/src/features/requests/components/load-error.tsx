import { MESSAGES } from '../../../../../domain';
import { ForbiddenPage } from '../../../components/errors/forbidden-page';
import { Alert } from '../../../components/ui/alert';
import type { ApiError } from '../../../lib/api-client';
import { UI_TEXT } from '../../../lib/ui-text';

/** A request that could not be loaded: forbidden, missing, or a general failure. */
export function LoadError({ error }: { error: ApiError }) {
  if (error.code === 403) return <ForbiddenPage />;
  return <Alert kind="error">{error.code === 404 ? UI_TEXT.requestNotFound : MESSAGES.genericPageError}</Alert>;
}
