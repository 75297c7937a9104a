import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function ValidatePicturePage() {
  return <ComingSoon titleKey="pages.validatePicture.title" descriptionKey="pages.validatePicture.text" backTo="/dashboard" />;
}
