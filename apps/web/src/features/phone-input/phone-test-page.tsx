import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function PhoneTestPage() {
  return <ComingSoon titleKey="pages.phoneTest.title" descriptionKey="pages.phoneTest.text" />;
}
