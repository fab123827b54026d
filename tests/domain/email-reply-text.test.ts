/**
 * What an answer by email posts: the new text only, on replies written the way real mail clients write them
 * (tests/fixtures/replies/: `<client>.txt` or `<client>.html` as sent, `<client>.expected.txt` what is posted).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HTML_MAX_DEPTH, htmlToPlainText, readReplyText, REPLY_LINE_MAX_CHARS, replyText } from '../../mail-in/processing/reply-text';

const dir = path.join(import.meta.dirname, '../fixtures/replies');
const samples = fs.readdirSync(dir).filter((name) => /\.(txt|html)$/.test(name) && !name.endsWith('.expected.txt')).sort();
const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
const expected = (name: string) => read(name.replace(/\.(txt|html)$/, '.expected.txt')).trim();

describe('the new text of a reply', () => {
  it('has a sample of each client the issue names', () => {
    for (const client of ['gmail-top-post', 'outlook-desktop', 'apple-mail', 'ios-mail', 'android-outlook', 'french-gmail', 'bottom-post', 'gmail.html', 'outlook-web.html']) {
      expect(samples.some((name) => name.startsWith(client))).toBe(true);
    }
  });

  it.each(samples)('%s', (name) => {
    const body = read(name);
    const text = replyText(name.endsWith('.html') ? { text: null, html: body } : { text: body });
    expect(text).toBe(expected(name));
    // Nothing of the portal's own email comes back: not its greeting, its reply address or its signature.
    expect(text).not.toMatch(/reply\+50123|Dear |Risk Management|wrote:|a écrit|Original Message|^From:/m);
  });

  it('CRLF line ends, as mail travels, read the same', () => {
    const body = read('outlook-desktop.txt').replace(/\n/g, '\r\n');
    expect(replyText({ text: body })).toBe(expected('outlook-desktop.txt'));
  });

  it('the plain-text part wins over the HTML part; an answer of quotes only posts nothing', () => {
    expect(replyText({ text: 'Plain words.\n', html: '<p>HTML words.</p>' })).toBe('Plain words.');
    expect(replyText({ text: '  \n', html: '<p>HTML words.</p>' })).toBe('HTML words.');
    expect(replyText({ text: '> only the quote\n> of the email\n' })).toBe('');
    expect(replyText({})).toBe('');
  });
});

describe('bounded work', () => {
  // The parser's patterns take time with the square of a line's length: one 200 KB line took 24 s before lines
  // were wrapped. Each of these returns at once now; the test's own timeout is what a regression would hit.
  it('a body of one enormous line, or megabytes of quoted history, is read within bounds', () => {
    const line = replyText({ text: `On ${'x '.repeat(100_000)}` });
    expect(Math.max(...line.split('\n').map((l) => l.length))).toBeLessThanOrEqual(REPLY_LINE_MAX_CHARS);
    const history = `New text.\n\nOn Fri, Nov 27, 2026 at 9:14 AM X <x@y.example> wrote:\n${'> quoted line of history\n'.repeat(100_000)}`;
    expect(replyText({ text: history })).toBe('New text.');
    expect(replyText({ html: `<p>New</p><blockquote>${'<div>On a b <b>c</b> wrote: &amp;</div>'.repeat(60_000)}</blockquote>` })).toBe('New');
    // Runs of blank lines: the parser's time grew with the square of a run (20,000 blank lines took 6 s).
    expect(replyText({ text: `Hello${'\n'.repeat(200_000)}there` })).toBe('Hello\n\nthere');
  }, 20_000);

  it('markup nested deeper than the bound is not read (the walk would overflow the stack); what sits above it is', () => {
    expect(readReplyText({ html: `${'<b>'.repeat(20_000)}deep${'</b>'.repeat(20_000)}` })).toEqual({ text: '', cut: true });
    expect(readReplyText({ html: `<p>On top.</p>${'<blockquote>'.repeat(20_000)}deep` })).toEqual({ text: 'On top.', cut: true });
    const outlook = `${'<div><table><tr><td>'.repeat(HTML_MAX_DEPTH / 4 - 2)}Thanks, attached.`;
    expect(readReplyText({ html: outlook })).toEqual({ text: 'Thanks, attached.', cut: false });
  });
});

describe('HTML made text safely', () => {
  it('drops script, style, head, hidden elements and images; decodes entities; keeps link words without the address', () => {
    const text = htmlToPlainText(read('hostile.html'));
    for (const leaked of ['document.cookie', 'alert(2)', 'alert(3)', 'evil.example', 'background', 'Preheader', 'ignore me', 'tracking pixel', 'Enable scripts']) {
      expect(text).not.toContain(leaked);
    }
    expect(text).toContain('Dr. Smith — Medical Staff Office');
    // An escaped tag the sender typed stays words: the discussion shows text, never markup.
    expect(text).toContain('<script>alert(1)</script> & thanks');
    expect(htmlToPlainText('<p>See <a href="https://x.example/a">the form</a></p>')).toBe('See the form');
  });
});
