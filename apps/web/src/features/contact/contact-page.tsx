import { ComingSoon } from '@/components/coming-soon';

/** Route and guard are final; the page itself comes in a later step. */
export function ContactPage() {
  return <ComingSoon titleKey="pages.contact.title" descriptionKey="pages.contact.text" />;
}
