import { UI_TEXT } from '../../lib/ui-text';

export const Loading = () => <p className="loading" role="status">{UI_TEXT.loading}</p>;
