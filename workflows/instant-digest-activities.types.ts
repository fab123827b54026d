/**
 * Activity signature of the instant-certificate digest workflow. Declared beside the workflow that calls it;
 * activities/ implements it.
 */
export interface InstantDigestActivityInput {
  /** the office day to report on, or null: the office day before `at` */
  day: string | null;
  /** when the workflow ran (its own clock, the same on every retry): which "yesterday" a run without a day means */
  at: number;
}

/** `sent`: the email went out now; `already sent`: a run before this one sent it; `none`: no rule issued that day. */
export interface InstantDigestResult { day: string; outcome: 'sent' | 'already sent' | 'none'; issued: number }

export interface InstantDigestActivities {
  sendInstantDigest(input: InstantDigestActivityInput): Promise<InstantDigestResult>;
}
