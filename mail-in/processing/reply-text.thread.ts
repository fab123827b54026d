/**
 * The thread that reads a reply's new text (mail-in/processing/reply-text-reader.ts runs it): whatever the conversion
 * throws on a message (a stack overflow on deep markup, a library's error on odd input) is the message's fault, so it
 * is answered as "unreadable" instead of thrown, and the activity decides once instead of retrying without end.
 */
import { HTML_MAX_DEPTH, readReplyText } from './reply-text';

export type ReplyReading = { text: string } | { unreadable: string };

/** `warm`: only load this module on a thread (its start is not counted in a reading's time bound). */
export default function readReply(body: { text?: string | null; html?: string | null; warm?: boolean }): ReplyReading {
  if (body.warm) return { text: '' };
  try {
    const { text, cut } = readReplyText(body);
    return !text && cut ? { unreadable: `no text above markup nested deeper than ${HTML_MAX_DEPTH} elements` } : { text };
  } catch (error) {
    return { unreadable: `${(error as Error).name}: ${(error as Error).message}`.slice(0, 200) };
  }
}
