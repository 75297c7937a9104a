import { LegalPage, type LegalSectionName } from '@/features/legal/legal-page';

const SECTIONS = [
  'purpose',
  'access',
  'diplomas',
  'verification',
  'candidates',
  'obligations',
  'liability',
  'property',
  'data',
  'law',
] as const satisfies readonly LegalSectionName<'terms'>[];

export function TermsPage() {
  return <LegalPage prefix="terms" sections={SECTIONS} />;
}
