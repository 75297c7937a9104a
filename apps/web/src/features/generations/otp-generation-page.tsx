import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function OtpGenerationPage() {
  return <ComingSoon titleKey="pages.otpGeneration.title" descriptionKey="pages.otpGeneration.text" backTo="/dashboard" />;
}
