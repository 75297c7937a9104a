import { LegalPage } from '@/features/legal/legal-page';

const SECTIONS = ['controller', 'data', 'purposes', 'retention', 'rights', 'security', 'storage'] as const;

export function PrivacyPage() {
  return <LegalPage prefix="privacy" sections={SECTIONS} />;
}
