import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isValidDiplomaId, useVerifyById, type VerificationResultData } from '@/features/verification/verification-api';
import { VerificationResult } from '@/features/verification/verification-result';
import { DiplomaDownload, isDiplomaServed, ShareLink } from '@/features/verification/public-diploma';
import { saveFile } from '@/lib/save-file';
import { failureMessage, useMessageText } from '@/lib/message';
import { useDocumentTitle } from '@/lib/use-document-title';

function CredentialDownload({ id, result }: { id: string; result: VerificationResultData }) {
  const { t } = useTranslation();
  if (!result.credential) return null;
  const credential = result.credential;
  return (
    <p>
      <button
        type="button"
        className="button button--ghost button--small"
        onClick={() => saveFile(new Blob([JSON.stringify(credential, null, 2)], { type: 'application/json' }), `diplome-${id}.json`)}
      >
        {t('verify.credential.download')}
      </button>
      <span className="muted"> {t('verify.credential.hint')}</span>
    </p>
  );
}

/** /verify/{id}: the page a diploma's QR code opens; shareable, verified on load. */
export function VerifyPage() {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const { id = '' } = useParams();
  useDocumentTitle(t('verify.resultTitle'));
  const valid = isValidDiplomaId(id);
  const query = useVerifyById(id, valid);
  const url = `${window.location.origin}/verify/${encodeURIComponent(id)}`;
  const error = query.error;

  return (
    <div className="container page verify-page">
      <h1>{t('verify.resultTitle')}</h1>
      {/* With a diploma, its number is among its fields. */}
      {query.data?.diploma ? null : (
        <p className="verify-page__intro">
          {t('verify.diplomaNumber')} <code>{id}</code>
        </p>
      )}

      {!valid ? (
        <div className="alert alert--error" role="alert" data-testid="verification-error">
          <p>{t('verify.failed')}</p>
          <p>{t('errors:field.diploma_id')}</p>
        </div>
      ) : error ? (
        <div className="alert alert--error" role="alert" data-testid="verification-error">
          <p>{error.code === 'network_error' ? messageText(failureMessage(error)) : t('verify.failed')}</p>
          {error.status === 422 ? <p>{t('errors:field.diploma_id')}</p> : null}
          {error.status !== 422 ? (
            <button type="button" className="button button--secondary button--small" onClick={() => void query.refetch()}>
              {t('common.retry')}
            </button>
          ) : null}
        </div>
      ) : null}

      <div data-testid="verification-result">
        <VerificationResult
          result={query.data ?? null}
          pending={valid && query.isPending && !error}
          level={2}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
          checkedAt={query.dataUpdatedAt || undefined}
        />
      </div>
      {/* On paper, the address where anyone can check it again. */}
      <p className="verify-print-url">{url}</p>

      {query.data ? (
        <div className="verify-page__links verify-noprint stack">
          {query.data.diploma && isDiplomaServed(query.data.verdict) ? (
            <div className="public-diploma__actions">
              <DiplomaDownload id={query.data.diploma.id} />
              <span className="muted">{t('publicDiploma.downloadHint')}</span>
            </div>
          ) : null}
          <ShareLink url={url} title={t('verify.share.title')} />
          <CredentialDownload id={id} result={query.data} />
        </div>
      ) : null}

      <p className="verify-page__links verify-noprint">
        <Link to="/verification">{t('verify.another')}</Link>
      </p>
    </div>
  );
}
