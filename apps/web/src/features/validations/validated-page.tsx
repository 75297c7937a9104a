import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function ValidatedPage() {
  return <ComingSoon titleKey="pages.validated.title" descriptionKey="pages.validated.text" backTo="/dashboard" />;
}
