/**
 * The kinds of line in the security log and their labels on `/manage/security-log`. One list, read by the
 * API (which writes and filters by them) and the UI (the kind filter). Kept a year (SECURITY_LOG_RETENTION_DAYS).
 */
export const SECURITY_EVENT_KINDS = {
  signInSucceeded: 'Sign-in succeeded',
  signInFailed: 'Sign-in failed',
  signInThrottled: 'Sign-in refused: too many attempts',
  singleSignOn: 'Single sign-on',
  singleSignOnRefused: 'Single sign-on refused',
  accessRefused: 'Access refused',
  quotaRefused: 'Quota reached',
  adminAdded: 'Administrator added',
  adminChanged: 'Administrator changed',
  adminRemoved: 'Administrator removed',
  userDeactivated: 'User deactivated',
  userReactivated: 'User reactivated',
  registered: 'Registered',
  emailChangeRequested: 'Email change requested',
  emailConfirmed: 'Email confirmed',
  passwordResetRequested: 'Password reset requested',
  passwordReset: 'Password reset',
  passwordChanged: 'Password changed',
  templateEdited: 'Email template edited',
  exportStarted: 'Export started',
  csStarsUploaded: 'CS-STARS data uploaded',
  instantRuleCreated: 'Instant rule created',
  instantRuleChanged: 'Instant rule changed',
  instantRuleEnabled: 'Instant rule switched on',
  instantRuleDisabled: 'Instant rule switched off',
  instantRuleBroken: 'Instant rule switched off: could not be evaluated',
  instantSwitchedOn: 'Instant certificates switched on',
  instantSwitchedOff: 'Instant certificates switched off',
  instantHoldSet: 'Requester held from instant certificates',
  instantHoldCleared: 'Requester hold for instant certificates cleared',
  apiKeyCreated: 'API key created',
  apiKeyRevoked: 'API key revoked',
  apiKeyUsed: 'API key used',
  apiKeyRefused: 'API key refused',
} as const;

export type SecurityEventKind = keyof typeof SECURITY_EVENT_KINDS;

/** How long a line of the security log is kept. */
export const SECURITY_LOG_RETENTION_DAYS = 366;
