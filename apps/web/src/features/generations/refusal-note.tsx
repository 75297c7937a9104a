import type { AbilityRefusal } from '@sceau/contracts';
import { useTranslation } from 'react-i18next';
import { dynamicKey, translate } from '@/lib/text-keys';

/**
 * Why an action on a batch cannot be done, as the server's policy says (`refusals` of the batch):
 * shown in place of the action, translated from the `errors` catalogue.
 */
export function RefusalNote({ refusal, testId }: { refusal: AbilityRefusal | undefined; testId: string }) {
  const { t } = useTranslation();
  if (!refusal) return null;
  return (
    <p className="alert alert--error" role="note" data-testid={testId}>
      {translate(t, dynamicKey(`errors:${refusal.key}`), refusal.params)}
    </p>
  );
}
