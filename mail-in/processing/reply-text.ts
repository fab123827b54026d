/**
 * WHAT AN ANSWER BY EMAIL POSTS: the new text only (the one place).
 *
 * - Quoted history, "On … wrote:" lines (and their translations: "Le … a écrit :", "Am … schrieb", …), Outlook's
 *   "From: … Sent: …" block under its underscore line or "-----Original Message-----", signatures after "-- " and
 *   mobile ones ("Sent from my iPhone", "Get Outlook for Android") are removed: `email-reply-parser` (GitHub's rules,
 *   extended by Crisp for more clients and languages), checked on the samples in tests/fixtures/replies/.
 * - Sign-offs the parser knows as signatures ("Regards,", "Cordialement," and what follows) are removed with them;
 *   a name typed under the text stays.
 * - HTML-only mail becomes text first, safely: script, style, head, images and hidden elements are dropped, entities
 *   decoded, links keep their words only; a blockquote becomes "> " lines, so it is removed like any quote.
 * - The result is plain text (never HTML): the discussion shows it as text.
 */
import EmailReplyParser from 'email-reply-parser';
import { convert, type HtmlToTextOptions } from 'html-to-text';

/** HTML past this many characters is not read (cut here, so html-to-text has nothing to warn about). */
const HTML_MAX_CHARS = 2_000_000;
/**
 * Elements nested deeper than this are not read: html-to-text walks the tree by recursion, and a few thousand nested
 * tags (any sender can write them) overflow the stack. Real mail nests a few dozen levels (Outlook's tables, a long
 * thread's quotes); the new text of an answer sits near the top.
 */
export const HTML_MAX_DEPTH = 128;
/** What html-to-text writes where it stopped at HTML_MAX_DEPTH (an invisible separator, removed from the text). */
const DEPTH_CUT = '\u2063';

const HTML_OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  decodeEntities: true,
  limits: { maxInputLength: HTML_MAX_CHARS, maxDepth: HTML_MAX_DEPTH, ellipsis: DEPTH_CUT },
  selectors: [
    { selector: 'head', format: 'skip' },
    { selector: 'title', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'noscript', format: 'skip' },
    { selector: 'template', format: 'skip' },
    { selector: 'iframe', format: 'skip' },
    { selector: 'object', format: 'skip' },
    { selector: 'svg', format: 'skip' },
    { selector: 'img', format: 'skip' },
    // Hidden text (preheaders, tracking) is not what the sender saw when writing.
    { selector: '[hidden]', format: 'skip' },
    { selector: '[style*="display:none"]', format: 'skip' },
    { selector: '[style*="display: none"]', format: 'skip' },
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    // Outlook puts an <hr> above its "From: … Sent: …" block; the block's own header is what marks the quote.
    { selector: 'hr', format: 'skip' },
    { selector: 'blockquote', options: { trimEmptyLines: false } },
  ],
};

/**
 * The text of an HTML body as the reader saw it: no markup, no script or style content, entities decoded (`cut`:
 * elements nested past HTML_MAX_DEPTH were left unread).
 */
function convertHtml(html: string): { text: string; cut: boolean } {
  const converted = convert(html.length > HTML_MAX_CHARS ? html.slice(0, HTML_MAX_CHARS) : html, HTML_OPTIONS);
  return { text: converted.replaceAll(DEPTH_CUT, '').replace(/\u00a0/g, ' '), cut: converted.includes(DEPTH_CUT) };
}

export const htmlToPlainText = (html: string): string => convertHtml(html).text;

/**
 * How much of a body is read, and the longest line: the parser's patterns take time growing with the square of a
 * line's length (one 200 KB line: 24 s), so longer lines are wrapped and the rest of a huge body is not read. The new
 * text of an answer is at its top (or, bottom-posted, just below the quote), far within these bounds.
 */
export const REPLY_SOURCE_MAX_CHARS = 256_000;
export const REPLY_LINE_MAX_CHARS = 1_000;

/** A line cut into pieces of at most REPLY_LINE_MAX_CHARS, at a space where there is one. */
function wrapped(line: string): string {
  const pieces: string[] = [];
  let rest = line;
  while (rest.length > REPLY_LINE_MAX_CHARS) {
    const space = rest.lastIndexOf(' ', REPLY_LINE_MAX_CHARS);
    const cut = space > REPLY_LINE_MAX_CHARS / 2 ? space : REPLY_LINE_MAX_CHARS;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^ /, '');
  }
  pieces.push(rest);
  return pieces.join('\n');
}

/**
 * Line ends, the byte-order and zero-width marks some clients put before a quote, trailing blanks; bounded. Runs of
 * blank lines become one: the parser's time grows with the square of a run's length (20,000 blank lines: 6 s), and a
 * blank line more or less changes nothing a reader sees.
 */
function normalise(text: string): string {
  const bounded = text.length > REPLY_SOURCE_MAX_CHARS ? text.slice(0, text.lastIndexOf('\n', REPLY_SOURCE_MAX_CHARS) + 1 || REPLY_SOURCE_MAX_CHARS) : text;
  return bounded.replace(/\r\n?/g, '\n').replace(/\ufeff|\u200b|\u200c|\u200d|\u2060/g, '').replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .split('\n').map((line) => (line.length > REPLY_LINE_MAX_CHARS ? wrapped(line) : line)).join('\n');
}

/**
 * The new text of an answer: from its plain-text part when it has one, else from its HTML part made text. Empty when
 * the answer adds nothing (only quoted history or a signature). `cut`: its HTML nested deeper than HTML_MAX_DEPTH,
 * so part of it was not read (an empty answer is then unreadable, not empty).
 */
export function readReplyText(body: { text?: string | null; html?: string | null }): { text: string; cut: boolean } {
  const html = !body.text?.trim() && body.html?.trim() ? convertHtml(body.html) : null;
  const source = html ? html.text : body.text?.trim() ? body.text : '';
  const visible = new EmailReplyParser().read(normalise(source)).getVisibleText();
  // A separator line left above the removed history (a typed "-----" or "_____") is not text either.
  const text = visible.replace(/(?:\n[ \t]*[-_=*]{3,}[ \t]*)+\s*$/, '').replace(/\n{3,}/g, '\n\n').trim();
  return { text, cut: html?.cut ?? false };
}

/** The new text of an answer (readReplyText without the depth note). */
export const replyText = (body: { text?: string | null; html?: string | null }): string => readReplyText(body).text;
