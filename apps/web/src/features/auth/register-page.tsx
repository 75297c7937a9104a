import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function RegisterPage() {
  return <ComingSoon titleKey="pages.register.title" descriptionKey="pages.register.text" variant="auth" />;
}
