import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function SettingsPage() {
  return <ComingSoon titleKey="pages.settings.title" descriptionKey="pages.settings.text" backTo="/dashboard" />;
}
