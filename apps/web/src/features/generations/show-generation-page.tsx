import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function ShowGenerationPage() {
  return <ComingSoon titleKey="pages.showGeneration.title" descriptionKey="pages.showGeneration.text" backTo="/dashboard" />;
}
