import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function VerificationPage() {
  return <ComingSoon titleKey="pages.verification.title" descriptionKey="pages.verification.text" />;
}
