import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function StudentCheckPage() {
  return <ComingSoon titleKey="pages.studentCheck.title" descriptionKey="pages.studentCheck.text" />;
}
