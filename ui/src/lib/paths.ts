/** Route table (spec 1 §2): `path` for the router, `getHref` for links. */
import { PRODUCT_NAME, type FaqType } from '../../../domain';

const route = <A extends unknown[] = []>(path: string, getHref?: (...args: A) => string) =>
  ({ path, getHref: getHref ?? (() => path) }) as { path: string; getHref: (...args: A) => string };

export const paths = {
  home: route('/'),
  requests: route('/requests'),
  login: route('/login'),
  register: route('/login/register'),
  forgotPassword: route('/login/forgot-password'),
  passwordReset: route('/login/password-reset/:id', (id: string) => `/login/password-reset/${id}`),
  confirmEmail: route('/login/confirm-email/:token', (token: string) => `/login/confirm-email/${token}`),
  /** The FAQs for the reader's role, or a named set (a request form's help line opens the requesters' set). */
  faqs: route('/faqs', (set?: FaqType) => (set ? `/faqs?set=${set}` : '/faqs')),
  password: route('/password'),
  /** an external account's webhook endpoints and deliveries (administrators read every account's) */
  webhooks: route('/webhooks'),
  profileEdit: route('/profile/:id/edit', (id: number | string) => `/profile/${id}/edit`),
  /** An external account's API keys for its organisation's systems. */
  apiKeys: route('/account/api-keys'),
  search: route('/search'),
  /** Requests uploaded in bulk: the upload, and one roster's rows. */
  rosters: route('/rosters'),
  roster: route('/rosters/:id', (id: number | string) => `/rosters/${id}`),
  /** The public check of a certificate or letter (no sign-in): by code, or by its PDF on `/verify`. */
  verify: route('/verify/:code', (code?: string) => (code ? `/verify/${encodeURIComponent(code)}` : '/verify')),
  verifyStart: route('/verify'),
  /** The requester's answer to "Do you still need this certificate?" (public: the link in the renewal email). */
  renewalAnswer: route('/renewal-answer/:token', (token: string) => `/renewal-answer/${encodeURIComponent(token)}`),
  credentialing: {
    new: route('/requests/credentialing/new'),
    edit: route('/requests/credentialing/:id/edit', (id: number | string) => `/requests/credentialing/${id}/edit`),
    view: route('/requests/credentialing/:id', (id: number | string) => `/requests/credentialing/${id}`),
  },
  certificate: {
    new: route('/requests/certificate/new'),
    edit: route('/requests/certificate/:id/edit', (id: number | string) => `/requests/certificate/${id}/edit`),
    view: route('/requests/certificate/:id', (id: number | string) => `/requests/certificate/${id}`),
  },
  manage: {
    templates: route('/manage/templates'),
    milestones: route('/manage/milestones'),
    admins: route('/manage/admins'),
    registrants: route('/manage/registrants'),
    registrantEdit: route('/manage/registrants/:id/edit', (id: number | string) => `/manage/registrants/${id}/edit`),
    policies: route('/manage/policies'),
    csStars: route('/manage/cs-stars'),
    oca: route('/manage/oca'),
    faqs: route('/manage/faqs'),
    export: route('/manage/export'),
    securityLog: route('/manage/security-log'),
    emailProblems: route('/manage/email-problems'),
    reports: route('/manage/reports'),
    instantCertificates: route('/manage/instant-certificates'),
    instantChecks: route('/manage/check-after-issue'),
    apiKeys: route('/manage/api-keys'),
    renewals: route('/manage/renewals'),
  },
  /** Employee/student single sign-on, served by the API host (not the SPA). */
  samlLogin: route(`/saml/${PRODUCT_NAME}/login`),
} as const;

/** Admin Manage submenu, in the spec's order; then what came after the spec (instant certificates, renewals). */
export const MANAGE_MENU = [
  { label: 'Email Templates', href: paths.manage.templates.getHref() },
  { label: 'Administrators', href: paths.manage.admins.getHref() },
  { label: 'External Users', href: paths.manage.registrants.getHref() },
  { label: 'Policies', href: paths.manage.policies.getHref() },
  { label: 'CS-STARS Data', href: paths.manage.csStars.getHref() },
  { label: 'Off-Campus Authorization (OCA) Data', href: paths.manage.oca.getHref() },
  { label: 'FAQs', href: paths.manage.faqs.getHref() },
  { label: 'Export Requests', href: paths.manage.export.getHref() },
  { label: 'Security Log', href: paths.manage.securityLog.getHref() },
  { label: 'Emails Not Sent', href: paths.manage.emailProblems.getHref() },
  { label: 'Reports', href: paths.manage.reports.getHref() },
  { label: 'Instant Certificates', href: paths.manage.instantCertificates.getHref() },
  { label: 'Check After Issue', href: paths.manage.instantChecks.getHref() },
  { label: 'Renewals', href: paths.manage.renewals.getHref() },
  { label: 'API Keys', href: paths.manage.apiKeys.getHref() },
  { label: 'Webhooks', href: paths.webhooks.getHref() },
] as const;
