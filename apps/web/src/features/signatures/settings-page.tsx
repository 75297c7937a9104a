import { SIGNATURE_KINDS } from '@sceau/contracts';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/error-alert';
import { SignatureCard } from '@/features/signatures/signature-card';
import { useSignaturesState } from '@/features/signatures/signatures-api';
import { useDocumentTitle } from '@/lib/use-document-title';

/** The official signatures placed on the diplomas (spec section 2, /settings). */
export function SettingsPage() {
  const { t } = useTranslation();
  const title = t('signatures.title');
  useDocumentTitle(title);
  const state = useSignaturesState();

  return (
    <div className="container page stack">
      <header>
        <h1>{title}</h1>
        <p className="muted">{t('signatures.intro')}</p>
      </header>
      <ErrorAlert error={state.error} onRetry={() => void state.refetch()} />
      {state.isPending ? <p role="status">{t('common.loading')}</p> : null}
      {state.data ? (
        <div className="signature-grid">
          {SIGNATURE_KINDS.map((kind) => (
            // Keyed by the stored version so that the form starts again from what was saved.
            <SignatureCard
              key={`${kind}-${state.data.signatures[kind]?.updated_at ?? 'none'}`}
              kind={kind}
              signature={state.data.signatures[kind]}
              abilities={state.data.abilities}
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}
