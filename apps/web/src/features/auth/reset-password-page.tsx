import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function ResetPasswordPage() {
  return <ComingSoon titleKey="pages.resetPassword.title" descriptionKey="pages.resetPassword.text" variant="auth" />;
}
