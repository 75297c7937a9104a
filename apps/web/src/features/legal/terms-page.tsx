import { LegalPage } from '@/features/legal/legal-page';

const SECTIONS = ['purpose', 'access', 'verification', 'obligations', 'liability', 'law'] as const;

export function TermsPage() {
  return <LegalPage prefix="terms" sections={SECTIONS} />;
}
