/**
 * Discussions (spec 1 §3 "Discussion", spec 2 §7.8): threads of messages on a request. A thread id is a random
 * uppercase string, new on a new topic and kept on a reply; a message is required and at most MESSAGE_MAX long.
 * Everyone who may see the request may post while it is not finished (completed or closed).
 */
import { MESSAGE_MAX } from './limits';
import { MESSAGES } from './messages';
import { isFinished, type RequestStatus } from './request-status';

export const DISCUSSION_TOPIC_MAX = 200;
const THREAD_ID_LENGTH = 12;
export const THREAD_ID_PATTERN = /^[A-Z]{12}$/;

/** A thread id from random bytes (the caller supplies them: domain/ stays free of crypto). */
export function threadIdFrom(randomBytes: Uint8Array): string {
  return Array.from(randomBytes.slice(0, THREAD_ID_LENGTH), (b) => String.fromCharCode(65 + (b % 26))).join('');
}

/**
 * The key of the email that tells the other side about a message (its effect's key): derived from the message, so a
 * repeated delivery finds the same effect. The email's Message-ID carries it (domain/reply-address.ts
 * `portalMessageId`), so an answer by email names the message it answers in its In-Reply-To.
 */
export const discussionEmailKey = (discussionRowId: number) => `discussion-${discussionRowId}`;
const DISCUSSION_EMAIL_KEY = /^discussion-([1-9][0-9]{0,15})$/;
/** The message a discussion email's key names, or null for any other key. */
export function discussionRowOfEmailKey(key: string): number | null {
  const match = DISCUSSION_EMAIL_KEY.exec(key);
  return match ? Number(match[1]) : null;
}

export const discussionsOpen = (status: RequestStatus): boolean => !isFinished(status);
export const DISCUSSIONS_CLOSED_MESSAGE = 'This request is completed or closed: its discussions are closed to new messages.';

interface DiscussionInput { topic?: string | null; message?: string | null; discussionId?: string | null }

/** Field errors of a new message (empty when it may be posted). */
export function discussionErrors(input: DiscussionInput): Record<string, string> {
  const errors: Record<string, string> = {};
  const message = (input.message ?? '').trim();
  if (!message) errors.message = MESSAGES.required; // spec 1 §5: every required field says so the same way
  else if (message.length > MESSAGE_MAX) errors.message = `Message must be at most ${MESSAGE_MAX} characters`;
  if (input.discussionId) {
    if (!THREAD_ID_PATTERN.test(input.discussionId)) errors.discussionId = 'Unknown discussion';
  } else {
    const topic = (input.topic ?? '').trim();
    if (!topic) errors.topic = MESSAGES.required;
    else if (topic.length > DISCUSSION_TOPIC_MAX) errors.topic = `Discussion Topic must be at most ${DISCUSSION_TOPIC_MAX} characters`;
  }
  return errors;
}

export const discussionAuditText = (topic: string, fromAdmin: boolean) =>
  `${fromAdmin ? 'An administrator' : 'The requester'} posted a message in "${topic}"`;
export const discussionDeletedAuditText = (topic: string) => `A message in "${topic}" was deleted`;
