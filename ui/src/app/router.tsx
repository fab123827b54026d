import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { ErrorPage } from '../components/errors/error-page';
import { NotFoundPage } from '../components/errors/not-found-page';
import { paths } from '../lib/paths';
import { AppLayout } from './layout/app-layout';
import { AuthRoot } from './layout/auth-root';
import { PublicLayout } from './layout/public-layout';
import { RequireRole, isAdmin, isExternal } from './routes/require-role';
import { OwnProfile } from './routes/own-profile';
import { lazyPage, preloadScreens } from './lazy-page';

// Every screen is its own chunk (see lazy-page.ts); the layouts and error pages stay in the entry.
const ManageAdminsPage = lazyPage(() => import('../features/admin/components/manage-admins-page'), 'ManageAdminsPage');
const ManageRegistrantsPage = lazyPage(() => import('../features/admin/components/manage-registrants-page'), 'ManageRegistrantsPage');
const RegistrationPage = lazyPage(() => import('../features/registration/components/registration-page'), 'RegistrationPage');
const ChangePasswordPage = lazyPage(() => import('../features/auth/components/change-password-page'), 'ChangePasswordPage');
const ForgotPasswordPage = lazyPage(() => import('../features/auth/components/forgot-password-page'), 'ForgotPasswordPage');
const LoginPage = lazyPage(() => import('../features/auth/components/login-page'), 'LoginPage');
const ResetPasswordPage = lazyPage(() => import('../features/auth/components/reset-password-page'), 'ResetPasswordPage');
const ConfirmEmailPage = lazyPage(() => import('../features/auth/components/confirm-email-page'), 'ConfirmEmailPage');
const FaqsPage = lazyPage(() => import('../features/faqs/faqs-page'), 'FaqsPage');
const CsStarsPage = lazyPage(() => import('../features/manage/cs-stars-page'), 'CsStarsPage');
const ExportPage = lazyPage(() => import('../features/manage/export-page'), 'ExportPage');
const EmailProblemsPage = lazyPage(() => import('../features/admin/components/email-problems-page'), 'EmailProblemsPage');
const SecurityLogPage = lazyPage(() => import('../features/manage/security-log-page'), 'SecurityLogPage');
const ManageFaqsPage = lazyPage(() => import('../features/faqs/manage-faqs-page'), 'ManageFaqsPage');
const ManagePoliciesPage = lazyPage(() => import('../features/manage/manage-policies-page'), 'ManagePoliciesPage');
const ManageTemplatesPage = lazyPage(() => import('../features/manage/manage-templates-page'), 'ManageTemplatesPage');
const UnderConstructionPage = lazyPage(() => import('../features/manage/under-construction-page'), 'UnderConstructionPage');
const InstantCertificatesPage = lazyPage(() => import('../features/instant/instant-certificates-page'), 'InstantCertificatesPage');
const RenewalsPage = lazyPage(() => import('../features/renewals/renewals-page'), 'RenewalsPage');
const RenewalAnswerPage = lazyPage(() => import('../features/renewals/renewal-answer-page'), 'RenewalAnswerPage');
const CheckAfterIssuePage = lazyPage(() => import('../features/instant/check-after-issue-page'), 'CheckAfterIssuePage');
const ApiKeysPage = lazyPage(() => import('../features/api-keys/api-keys-page'), 'ApiKeysPage');
const ManageApiKeysPage = lazyPage(() => import('../features/api-keys/manage-api-keys-page'), 'ManageApiKeysPage');
const ReportsPage = lazyPage(() => import('../features/reports/reports-page'), 'ReportsPage');
const RostersPage = lazyPage(() => import('../features/rosters/rosters-page'), 'RostersPage');
const SearchPage = lazyPage(() => import('../features/search/search-page'), 'SearchPage');
const DashboardPage = lazyPage(() => import('../features/dashboard/components/dashboard-page'), 'DashboardPage');
const CertificateRequestPage = lazyPage(() => import('../features/requests/components/certificate-request-page'), 'CertificateRequestPage');
const CredentialingFormPage = lazyPage(() => import('../features/requests/components/credentialing-form-page'), 'CredentialingFormPage');
const CertificateViewPage = lazyPage(() => import('./routes/request-view-page'), 'CertificateViewPage');
const WebhooksPage = lazyPage(() => import('../features/webhooks/webhooks-page'), 'WebhooksPage');
const VerifyPage = lazyPage(() => import('../features/verify/verify-page'), 'VerifyPage');
const CredentialingViewPage = lazyPage(() => import('./routes/request-view-page'), 'CredentialingViewPage');


/** Route table of spec 1 §2. Screens not built yet say so; they show no made-up data. */
export const routes: RouteObject[] = [
  {
    element: <AuthRoot />,
    errorElement: <ErrorPage />,
    children: [
      {
        element: <PublicLayout />,
        children: [{
          errorElement: <ErrorPage />,
          children: [
            { path: paths.login.path, element: <LoginPage /> },
            { path: paths.register.path, element: <RegistrationPage /> },
            { path: paths.forgotPassword.path, element: <ForgotPasswordPage /> },
            { path: paths.passwordReset.path, element: <ResetPasswordPage /> },
            { path: paths.confirmEmail.path, element: <ConfirmEmailPage /> },
            // A certificate's holder checks it signed out (or signed in: the page is the same).
            { path: paths.verifyStart.path, element: <VerifyPage /> },
            { path: paths.verify.path, element: <VerifyPage /> },
            // The requester answers from the renewal email's link, usually signed out.
            { path: paths.renewalAnswer.path, element: <RenewalAnswerPage /> },
            // Unknown addresses are a 404 for everyone (spec 1 §2): under the public layout, so a signed-out visitor
            // is not sent to login first. Known protected paths stay below, behind the session.
            { path: '*', element: <NotFoundPage /> },
          ],
        }],
      },
      {
        element: <AppLayout />,
        children: [{
          errorElement: <ErrorPage />,
          children: [
            { path: paths.home.path, element: <DashboardPage /> },
            { path: paths.requests.path, element: <DashboardPage /> },
            { path: paths.credentialing.new.path, element: <CredentialingFormPage /> },
            { path: paths.credentialing.edit.path, element: <CredentialingFormPage /> },
            { path: paths.credentialing.view.path, element: <CredentialingViewPage /> },
            { path: paths.certificate.new.path, element: <CertificateRequestPage /> },
            { path: paths.certificate.edit.path, element: <CertificateRequestPage /> },
            { path: paths.certificate.view.path, element: <CertificateViewPage /> },
            { path: paths.faqs.path, element: <FaqsPage /> },
            { path: paths.rosters.path, element: <RostersPage /> },
            { path: paths.roster.path, element: <RostersPage /> },
            { element: <RequireRole allow={isExternal} />, children: [{ path: paths.password.path, element: <ChangePasswordPage /> }] },
            { element: <RequireRole allow={isExternal} />, children: [{ path: paths.apiKeys.path, element: <ApiKeysPage /> }] },
            { element: <RequireRole allow={(u) => isExternal(u) || isAdmin(u)} />, children: [{ path: paths.webhooks.path, element: <WebhooksPage /> }] },
            { element: <RequireRole allow={isExternal} />, children: [{ path: paths.profileEdit.path, element: <OwnProfile><RegistrationPage mode="profile" /></OwnProfile> }] },
            {
              element: <RequireRole allow={isAdmin} />,
              children: [
                { path: paths.search.path, element: <SearchPage /> },
                { path: paths.manage.templates.path, element: <ManageTemplatesPage /> },
                { path: paths.manage.milestones.path, element: <UnderConstructionPage title="Manage Milestones" /> },
                { path: paths.manage.admins.path, element: <ManageAdminsPage /> },
                { path: paths.manage.registrants.path, element: <ManageRegistrantsPage /> },
                { path: paths.manage.registrantEdit.path, element: <RegistrationPage mode="admin" /> },
                { path: paths.manage.policies.path, element: <ManagePoliciesPage /> },
                { path: paths.manage.csStars.path, element: <CsStarsPage /> },
                { path: paths.manage.oca.path, element: <UnderConstructionPage title="Manage OCA Data" /> },
                { path: paths.manage.faqs.path, element: <ManageFaqsPage /> },
                { path: paths.manage.export.path, element: <ExportPage /> },
                { path: paths.manage.securityLog.path, element: <SecurityLogPage /> },
                { path: paths.manage.emailProblems.path, element: <EmailProblemsPage /> },
                { path: paths.manage.reports.path, element: <ReportsPage /> },
                { path: paths.manage.instantCertificates.path, element: <InstantCertificatesPage /> },
                { path: paths.manage.instantChecks.path, element: <CheckAfterIssuePage /> },
                { path: paths.manage.renewals.path, element: <RenewalsPage /> },
                { path: paths.manage.apiKeys.path, element: <ManageApiKeysPage /> },
                // Any other /manage address is still admin-only.
                { path: '/manage/*', element: <NotFoundPage /> },
              ],
            },
          ],
        }],
      },
    ],
  },
];

export function createAppRouter() {
  preloadScreens(routes, window.location.pathname);
  return createBrowserRouter(routes);
}
