import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function ValidateDataPage() {
  return <ComingSoon titleKey="pages.validateData.title" descriptionKey="pages.validateData.text" backTo="/dashboard" />;
}
