import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { DiplomaDownload, isDiplomaServed, ShareLink } from '@/features/verification/public-diploma';
import { isValidDiplomaId, useVerifyById } from '@/features/verification/verification-api';
import { VerificationResult } from '@/features/verification/verification-result';
import { useDocumentTitle } from '@/lib/use-document-title';
import './view-certificate.css';

/** No diploma to show: say so, and offer the two ways to find one. */
function NoDiploma({ reason }: { reason: 'missing' | 'unknown' }) {
  const { t } = useTranslation();
  return (
    <section className="card view-certificate__none" aria-labelledby="view-certificate-none" data-testid="view-certificate-none">
      <h2 id="view-certificate-none">{t(`viewCertificate.${reason}.title`)}</h2>
      <p>{t(`viewCertificate.${reason}.text`)}</p>
      <ul className="view-certificate__ways">
        <li>
          <Link className="button" to="/student-check">
            {t('viewCertificate.toCandidateCheck')}
          </Link>
        </li>
        <li>
          <Link className="button button--secondary" to="/verification">
            {t('viewCertificate.toVerification')}
          </Link>
        </li>
      </ul>
    </section>
  );
}

/**
 * /view-certificate?id={diplomaId}: a diploma as its holder sees it after the candidate check or a
 * direct link: its verification (verdict, photo, public fields), its PDF (a counted download) and
 * its link to share. The shared link is the /verify/{id} page, the one the QR code opens.
 */
export function ViewCertificatePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('viewCertificate.title'));
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() ?? '';
  const valid = isValidDiplomaId(id);
  const query = useVerifyById(id, valid);
  const result = query.data;
  const error = query.error;
  const shareUrl = `${window.location.origin}/verify/${encodeURIComponent(id)}`;

  return (
    <div className="container page verify-page view-certificate">
      <h1>{t('viewCertificate.title')}</h1>
      {!id ? (
        <NoDiploma reason="missing" />
      ) : !valid || result?.verdict === 'unknown' ? (
        <NoDiploma reason="unknown" />
      ) : (
        <>
          {error ? (
            <div className="alert alert--error" role="alert" data-testid="verification-error">
              <p>{error.code === 'network_error' ? error.message : t('verify.failed')}</p>
              <button type="button" className="button button--secondary button--small" onClick={() => void query.refetch()}>
                {t('common.retry')}
              </button>
            </div>
          ) : null}
          {result?.diploma && isDiplomaServed(result.verdict) ? (
            <div className="public-diploma__actions view-certificate__actions verify-noprint">
              <DiplomaDownload id={result.diploma.id} />
              <span className="muted">{t('publicDiploma.downloadHint')}</span>
            </div>
          ) : null}
          <div data-testid="verification-result">
            <VerificationResult
              result={result ?? null}
              pending={query.isPending && !error}
              level={2}
              onRetry={() => void query.refetch()}
              retrying={query.isFetching}
              checkedAt={query.dataUpdatedAt || undefined}
            />
          </div>
          <p className="verify-print-url">{shareUrl}</p>
          {result ? (
            <div className="verify-page__links verify-noprint stack">
              <ShareLink url={shareUrl} title={t('viewCertificate.shareTitle')} />
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}
