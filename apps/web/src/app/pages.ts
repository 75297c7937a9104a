import type { APP_ROUTES } from '@sceau/contracts';
import type { ComponentType } from 'react';

type PageModule = () => Promise<ComponentType>;
type RoutePath = (typeof APP_ROUTES)[number]['path'];

/**
 * The page of every route of the contracts' table, loaded on demand (one chunk per page; the
 * progress bar shows while a chunk and the guard load). The `satisfies` makes a route without a
 * page a type error.
 */
export const ROUTE_PAGES = {
  '/': () => import('@/features/home/home-page').then((m) => m.HomePage),
  '/contact': () => import('@/features/contact/contact-page').then((m) => m.ContactPage),
  '/verification': () => import('@/features/verification/verification-page').then((m) => m.VerificationPage),
  '/terms-and-conditions': () => import('@/features/legal/terms-page').then((m) => m.TermsPage),
  '/privacy-policy': () => import('@/features/legal/privacy-page').then((m) => m.PrivacyPage),
  '/verify/:id': () => import('@/features/verification/verify-page').then((m) => m.VerifyPage),
  '/student-check': () => import('@/features/verification/student-check-page').then((m) => m.StudentCheckPage),
  '/mon-:product': () => import('@/features/verification/student-check-page').then((m) => m.StudentCheckPage),
  '/view-certificate': () => import('@/features/verification/view-certificate-page').then((m) => m.ViewCertificatePage),
  '/direct-auth': () => import('@/features/auth/direct-auth-page').then((m) => m.DirectAuthPage),
  '/shared/:token': () => import('@/features/holder/shared-diploma-page').then((m) => m.SharedDiplomaPage),
  '/phone-test': () => import('@/features/phone-input/phone-test-page').then((m) => m.PhoneTestPage),
  '/permission-test': () => import('@/features/users/permission-test-page').then((m) => m.PermissionTestPage),
  '/login': () => import('@/features/auth/login-page').then((m) => m.LoginPage),
  '/register': () => import('@/features/auth/register-page').then((m) => m.RegisterPage),
  '/otp-validation': () => import('@/features/auth/otp-validation-page').then((m) => m.OtpValidationPage),
  '/forgot-password': () => import('@/features/auth/forgot-password-page').then((m) => m.ForgotPasswordPage),
  '/reset-password': () => import('@/features/auth/reset-password-page').then((m) => m.ResetPasswordPage),
  '/dashboard': () => import('@/features/dashboard/dashboard-page').then((m) => m.DashboardPage),
  '/my-diplomas': () => import('@/features/holder/my-diplomas-page').then((m) => m.MyDiplomasPage),
  '/my-diplomas/shares': () => import('@/features/holder/shares-page').then((m) => m.SharesPage),
  '/certificates': () => import('@/features/generations/certificates-page').then((m) => m.CertificatesPage),
  '/check-file/:id': () => import('@/features/generations/check-file-page').then((m) => m.CheckFilePage),
  '/show/:id': () => import('@/features/generations/show-generation-page').then((m) => m.ShowGenerationPage),
  '/otp-generation/:id': () => import('@/features/generations/otp-generation-page').then((m) => m.OtpGenerationPage),
  '/generating-op/:id': () => import('@/features/generations/generating-page').then((m) => m.GeneratingPage),
  '/validate-picture/:id': () => import('@/features/validations/validate-picture-page').then((m) => m.ValidatePicturePage),
  '/validate-data/:id': () => import('@/features/validations/validate-data-page').then((m) => m.ValidateDataPage),
  '/student-reject/:id': () => import('@/features/validations/student-reject-page').then((m) => m.StudentRejectPage),
  '/validated': () => import('@/features/validations/validated-page').then((m) => m.ValidatedPage),
  '/role-access': () => import('@/features/users/role-access-page').then((m) => m.RoleAccessPage),
  '/settings': () => import('@/features/signatures/settings-page').then((m) => m.SettingsPage),
  '/audit-log': () => import('@/features/audit/audit-log-page').then((m) => m.AuditLogPage),
  '/dev/outbox': () => import('@/features/messaging/outbox-page').then((m) => m.OutboxPage),
} as const satisfies Record<RoutePath, PageModule>;

export const loadNotFoundPage: PageModule = () => import('@/features/not-found/not-found-page').then((m) => m.NotFoundPage);
