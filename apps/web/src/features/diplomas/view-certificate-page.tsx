import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function ViewCertificatePage() {
  return <ComingSoon titleKey="pages.viewCertificate.title" descriptionKey="pages.viewCertificate.text" />;
}
