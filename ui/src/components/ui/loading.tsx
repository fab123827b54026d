import { UI_TEXT } from '../../lib/ui-text';

export const Loading = ({ text = UI_TEXT.loading }: { text?: string } = {}) => <p className="loading" role="status">{text}</p>;

/** While the stored session is checked: "Loading…", or why it takes longer when a check failed and another follows. */
export const SessionCheckPending = ({ retrying }: { retrying?: boolean }) =>
  <Loading text={retrying ? UI_TEXT.sessionCheckRetrying : UI_TEXT.loading} />;
