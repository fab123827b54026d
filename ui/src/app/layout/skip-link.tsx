/** The element the skip link moves focus to: the `<main>` of both layouts. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * "Skip to main content": the first Tab stop of every page, shown only when focused, so keyboard users need not
 * tab through the header menu on each screen. Focus is moved by hand: a plain `#main-content` link would put the
 * hash in the router's address.
 */
export function SkipLink() {
  return (
    <a href={`#${MAIN_CONTENT_ID}`} className="skip-link" onClick={(event) => {
      event.preventDefault();
      document.getElementById(MAIN_CONTENT_ID)?.focus();
    }}>
      Skip to main content
    </a>
  );
}
