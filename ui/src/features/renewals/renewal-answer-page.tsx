import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router-dom';
import { RENEWAL_MESSAGES, type RenewalAnswer } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { Loading } from '../../components/ui/loading';
import { ApiError } from '../../lib/api-client';
import { displayDate } from '../../lib/format';
import { queryKeys } from '../../lib/query-keys';
import { ANSWER_LABELS } from './renewal-labels';
import { getQuestion, useAnswerQuestion, type RenewalQuestion } from './renewal-answer-api';

const BUTTONS: Record<RenewalAnswer, string> = { yes: 'Yes, renew it', no: 'No, I no longer need it' };

const errorText = (error: unknown) =>
  error instanceof ApiError && error.code < 500 && error.message ? error.message : 'Your answer could not be loaded or saved just now. Please try again in a moment.';

/**
 * `/renewal-answer/:token` (public, no sign-in): the requester answers "Do you still need this certificate?" from the
 * renewal email. The email's two links add `?answer=yes` or `?answer=no`; that answer becomes the focused, primary
 * button, but nothing is sent until it is pressed: mail scanners open every link in a message, and would otherwise
 * answer for the requester.
 */
export function RenewalAnswerPage() {
  const { token = '' } = useParams();
  const [params] = useSearchParams();
  const suggested = (['yes', 'no'] as const).find((a) => a === params.get('answer')) ?? null;
  const question = useQuery({
    queryKey: queryKeys.renewalQuestion(token),
    queryFn: ({ signal }) => getQuestion(token, signal),
    retry: false,
  });
  const answer = useAnswerQuestion(token);
  const thanks = useRef<HTMLDivElement>(null);
  useEffect(() => { if (answer.isSuccess) thanks.current?.focus(); }, [answer.isSuccess]);

  const q = question.data;
  return (
    <section className="page page--narrow renewal-answer">
      <meta name="robots" content="noindex, nofollow" />
      <h1>Do you still need this certificate?</h1>
      {question.status === 'pending' && <Loading />}
      {question.status === 'error' && <Alert kind="error">{errorText(question.error)}</Alert>}
      {q && (
        <>
          <QuestionFacts question={q} />
          {answer.isSuccess && answer.data.answer && (
            <div ref={thanks} tabIndex={-1} className="renewal-answer__thanks">
              <Alert kind="success">Thank you — your answer ({ANSWER_LABELS[answer.data.answer]}) is recorded.</Alert>
            </div>
          )}
          {answer.isError && <Alert kind="error">{errorText(answer.error)}</Alert>}
          {q.open ? (
            <>
              <p>
                {q.answer && !answer.isSuccess ? `Your answer so far: ${ANSWER_LABELS[q.answer]}. You can change it until ${displayDate(q.answerBy)}. ` : ''}
                {answer.isSuccess ? `Changed your mind? You can answer again until ${displayDate(q.answerBy)}.` : <strong>Please answer by {displayDate(q.answerBy)}.</strong>}
              </p>
              <AnswerButtons primary={answer.isSuccess ? null : suggested ?? 'yes'} focus={answer.isSuccess ? null : suggested}
                busy={answer.isPending} onAnswer={(a) => answer.mutate(a)} />
            </>
          ) : (
            <Alert kind="info">
              {RENEWAL_MESSAGES.answerClosed}{q.answer ? ` Your answer: ${ANSWER_LABELS[q.answer]}.` : ''}
            </Alert>
          )}
        </>
      )}
    </section>
  );
}

function QuestionFacts({ question }: { question: RenewalQuestion }) {
  return (
    <dl className="details details--compact">
      <div><dt>Request number</dt><dd>{question.requestNumber}</dd></div>
      <div><dt>Certificate</dt><dd>{question.subtypeLabel}</dd></div>
      <div><dt>Certificate holder</dt><dd>{question.holder}</dd></div>
      <div><dt>New policy year</dt><dd>{question.policyYear}</dd></div>
    </dl>
  );
}

interface AnswerButtonsProps {
  /** the filled button; null: both alike */
  primary: RenewalAnswer | null;
  /** the button the email's link chose, focused once shown */
  focus: RenewalAnswer | null;
  busy: boolean;
  onAnswer: (answer: RenewalAnswer) => void;
}

function AnswerButtons({ primary, focus, busy, onAnswer }: AnswerButtonsProps) {
  const refs = useRef<Partial<Record<RenewalAnswer, HTMLButtonElement | null>>>({});
  useEffect(() => { if (focus) refs.current[focus]?.focus(); }, [focus]);
  return (
    <div className="button-row">
      {(['yes', 'no'] as const).map((a) => (
        <button key={a} ref={(el) => { refs.current[a] = el; }} type="button" disabled={busy}
          className={a === primary ? 'button' : 'button button--secondary'} onClick={() => onAnswer(a)}>
          {BUTTONS[a]}
        </button>
      ))}
    </div>
  );
}
