import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function ForgotPasswordPage() {
  return <ComingSoon titleKey="pages.forgotPassword.title" descriptionKey="pages.forgotPassword.text" variant="auth" />;
}
