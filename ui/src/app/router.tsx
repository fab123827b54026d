import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { ErrorPage } from '../components/errors/error-page';
import { NotFoundPage } from '../components/errors/not-found-page';
import { ManageAdminsPage } from '../features/admin/components/manage-admins-page';
import { ManageRegistrantsPage } from '../features/admin/components/manage-registrants-page';
import { RegistrationPage } from '../features/registration/components/registration-page';
import { ChangePasswordPage } from '../features/auth/components/change-password-page';
import { ForgotPasswordPage } from '../features/auth/components/forgot-password-page';
import { LoginPage } from '../features/auth/components/login-page';
import { ResetPasswordPage } from '../features/auth/components/reset-password-page';
import { FaqsPage } from '../features/faqs/faqs-page';
import { CsStarsPage } from '../features/manage/cs-stars-page';
import { ExportPage } from '../features/manage/export-page';
import { ManageFaqsPage } from '../features/manage/manage-faqs-page';
import { ManagePoliciesPage } from '../features/manage/manage-policies-page';
import { ManageTemplatesPage } from '../features/manage/manage-templates-page';
import { UnderConstructionPage } from '../features/manage/under-construction-page';
import { SearchPage } from '../features/search/search-page';
import { DashboardPage } from '../features/dashboard/components/dashboard-page';
import { CertificateRequestPage } from '../features/requests/components/certificate-request-page';
import { CredentialingFormPage } from '../features/requests/components/credentialing-form-page';
import { paths } from '../lib/paths';
import { AppLayout } from './layout/app-layout';
import { AuthRoot } from './layout/auth-root';
import { PublicLayout } from './layout/public-layout';
import { CertificateViewPage, CredentialingViewPage } from './routes/request-view-page';
import { RequireRole, isAdmin, isExternal } from './routes/require-role';


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
            { element: <RequireRole allow={isExternal} />, children: [{ path: paths.password.path, element: <ChangePasswordPage /> }] },
            { element: <RequireRole allow={isExternal} />, children: [{ path: paths.profileEdit.path, element: <RegistrationPage mode="profile" /> }] },
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

export const createAppRouter = () => createBrowserRouter(routes);
