import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function CheckFilePage() {
  return <ComingSoon titleKey="pages.checkFile.title" descriptionKey="pages.checkFile.text" backTo="/dashboard" />;
}
