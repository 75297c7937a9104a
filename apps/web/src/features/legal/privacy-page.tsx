import { LegalPage, type LegalSectionName } from '@/features/legal/legal-page';

const SECTIONS = [
  'controller',
  'data',
  'purposes',
  'blockchain',
  'recipients',
  'retention',
  'rights',
  'security',
  'storage',
  'changes',
] as const satisfies readonly LegalSectionName<'privacy'>[];

export function PrivacyPage() {
  return <LegalPage prefix="privacy" sections={SECTIONS} />;
}
