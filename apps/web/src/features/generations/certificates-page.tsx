import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function CertificatesPage() {
  return <ComingSoon titleKey="pages.certificates.title" descriptionKey="pages.certificates.text" backTo="/dashboard" />;
}
