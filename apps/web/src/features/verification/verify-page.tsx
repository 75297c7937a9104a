import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function VerifyPage() {
  return <ComingSoon titleKey="pages.verify.title" descriptionKey="pages.verify.text" />;
}
