import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function RoleAccessPage() {
  return <ComingSoon titleKey="pages.roleAccess.title" descriptionKey="pages.roleAccess.text" backTo="/dashboard" />;
}
