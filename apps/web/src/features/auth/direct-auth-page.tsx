import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function DirectAuthPage() {
  return <ComingSoon titleKey="pages.directAuth.title" descriptionKey="pages.directAuth.text" />;
}
