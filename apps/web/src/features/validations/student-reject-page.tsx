import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function StudentRejectPage() {
  return <ComingSoon titleKey="pages.studentReject.title" descriptionKey="pages.studentReject.text" backTo="/dashboard" />;
}
