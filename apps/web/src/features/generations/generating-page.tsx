import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function GeneratingPage() {
  return <ComingSoon titleKey="pages.generating.title" descriptionKey="pages.generating.text" backTo="/dashboard" />;
}
