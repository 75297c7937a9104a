import { LegalPage } from '@/features/legal/legal-page';

const SECTIONS = ['purpose', 'access', 'diplomas', 'verification', 'candidates', 'obligations', 'liability', 'property', 'data', 'law'] as const;

export function TermsPage() {
  return <LegalPage prefix="terms" sections={SECTIONS} />;
}
