import { endpoints } from '@/lib/endpoints';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/copy-button';
import type { Verdict } from '@/features/verification/verification-api';
import { api } from '@/lib/api';
import './public-diploma.css';

/**
 * What anyone holding a diploma's link may fetch besides its verification (`GET /verify/{id}/pdf`,
 * counted; `GET /verify/{id}/photo`): the server serves them for a published, valid diploma only.
 */
export const publicDiplomaPdfUrl = (id: string) => api.url(endpoints.verification.pdf, { params: { id } });
export const publicDiplomaPhotoUrl = (id: string) => api.url(endpoints.verification.photo, { params: { id } });

/** Verdicts under which the diploma is published and not revoked, so its PDF and photo are served. */
export function isDiplomaServed(verdict: Verdict): boolean {
  return verdict === 'authentic' || verdict === 'incomplete';
}

/**
 * The signed PDF, as a plain link: the browser downloads it itself (no script holds 100 KB in
 * memory, a slow network shows the browser's own progress) and the server counts the download.
 */
export function DiplomaDownload({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <a className="button public-diploma__download" href={publicDiplomaPdfUrl(id)} download={`diplome-${id}.pdf`} data-testid="diploma-download">
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <path d="M12 3v11m0 0l-4.5-4.5M12 14l4.5-4.5M4 17v3h16v-3" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {t('publicDiploma.download')}
    </a>
  );
}

/** The holder's photo beside the public fields; gone without a trace when the server has none. */
export function DiplomaPhoto({ id, name }: { id: string; name: string | null }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return (
    <img
      className="public-diploma__photo"
      src={publicDiplomaPhotoUrl(id)}
      alt={name ? t('publicDiploma.photoOf', { name }) : t('publicDiploma.photo')}
      width={120}
      height={160}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
      data-testid="diploma-photo"
    />
  );
}

/** The page's link: copied, or handed to the phone's share sheet where the browser has one. */
export function ShareLink({ url, title }: { url: string; title: string }) {
  const { t } = useTranslation();
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  return (
    <div className="verify-share public-diploma__share" data-testid="verification-share">
      <span className="muted">{t('verify.share.label')}</span>
      <code>{url}</code>
      <span className="public-diploma__share-actions">
        <CopyButton value={url} label={t('verify.share.copy')} />
        {canShare ? (
          <button type="button" className="button button--ghost button--small" onClick={() => void navigator.share({ title, url }).catch(() => undefined)}>
            {t('verify.share.share')}
          </button>
        ) : null}
      </span>
    </div>
  );
}
