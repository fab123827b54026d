/**
 * The cache's keys, one family per resource, so a change can mark exactly what it touches as stale
 * (`queryClient.invalidateQueries({ queryKey: queryKeys.requests.all })` reaches every list and every request).
 */
export const queryKeys = {
  requests: {
    all: ['requests'] as const,
    lists: ['requests', 'list'] as const,
    list: (filter: unknown, skip: number) => ['requests', 'list', filter, skip] as const,
    detail: (id: number) => ['requests', 'detail', id] as const,
    activity: (id: number) => ['requests', 'activity', id] as const,
    /** under the request's own key, so whatever refreshes the request refreshes its letters too */
    issuedLetters: (id: number) => ['requests', 'detail', id, 'certificates'] as const,
    /** the rule that issued it or what stopped it: under the request's key, refreshed with it */
    instantDecision: (id: number) => ['requests', 'detail', id, 'instant-decision'] as const,
  },
  /**
   * A request's messages read on their own (the request form page, which keeps its own copy of the request): outside
   * `requests` so a change to the request does not read them again; a post or a delete names it.
   */
  discussions: (requestId: number) => ['discussions', requestId] as const,
  adminDashboard: (requestTypeLabel: string) => ['admin-dashboard', requestTypeLabel] as const,
  adminDashboards: ['admin-dashboard'] as const,
  admins: ['admins'] as const,
  externalUser: (id: string) => ['external-users', id] as const,
  /** an account's webhook endpoints; each endpoint's deliveries sit under it (a write on the endpoint refreshes both) */
  webhookEndpoints: ['webhook-endpoints'] as const,
  webhookDeliveries: (endpointId: number, skip?: number) => (skip === undefined ? ['webhook-endpoints', endpointId, 'deliveries'] as const : ['webhook-endpoints', endpointId, 'deliveries', skip] as const),
  emailProblemsAll: ['email-problems'] as const,
  emailProblems: (skip: number) => ['email-problems', skip] as const,
  securityLog: (query: string) => ['security-log', query] as const,
  templates: ['templates'] as const,
  csStarsClaims: ['cs-stars-claims'] as const,
  /** the caller's rosters; a roster's pages under its id (a fix or a submit reads every page of it again) */
  rosters: { all: ['rosters'] as const, detail: (id: number) => ['rosters', id] as const },
  faqs: (type: string) => ['faqs', type] as const,
  exports: ['exports'] as const,
  policies: ['policies'] as const,
  reportsAll: ['reports'] as const,
  reports: (query: unknown) => ['reports', query] as const,
  /** the office's switch and every rule (a rule's versions sit under it: a save refreshes both) */
  instantRules: ['instant-rules'] as const,
  instantRuleVersions: (id: number) => ['instant-rules', id, 'versions'] as const,
  instantChecksAll: ['instant-checks'] as const,
  instantHolds: ['instant-holds'] as const,
  instantChecks: (skip: number) => ['instant-checks', skip] as const,
  /** the account's own keys and, under the same family, every account's (administrators) */
  apiKeys: { all: ['api-keys'] as const, own: ['api-keys', 'own'] as const, every: ['api-keys', 'every'] as const },
  /** renewal season: the candidates of a selection, and the runs with each run's certificates under the run */
  renewals: {
    candidatesAll: ['renewals', 'candidates'] as const,
    candidates: (query: unknown) => ['renewals', 'candidates', query] as const,
    runs: ['renewals', 'runs'] as const,
    runItems: (runId: number, state: string, skip: number) => ['renewals', 'runs', runId, 'items', state, skip] as const,
  },
  /** the public "Do you still need this certificate?" of one emailed token */
  renewalQuestion: (token: string) => ['renewal-question', token] as const,
};
