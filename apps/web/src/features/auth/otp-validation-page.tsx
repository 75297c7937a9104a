import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function OtpValidationPage() {
  return <ComingSoon titleKey="pages.otpValidation.title" descriptionKey="pages.otpValidation.text" variant="auth" />;
}
