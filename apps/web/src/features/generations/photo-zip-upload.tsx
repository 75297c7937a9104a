import { IMPORT_LIMITS, type GenerationView, type PhotoZipReport } from '@sceau/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { endpoints } from '@/lib/endpoints';
import { formatBytes } from '@/lib/format-bytes';
import { isApiError } from '@/lib/http';
import { bytesMessage, keyMessage, textMessage, useMessageText, type Message } from '@/lib/message';
import { RESUMABLE_FROM_BYTES, sendFileResumable, uploadClient, type UploadProgress } from '@/features/generations/check-upload';

/**
 * Sends a photos zip to a batch (`POST /generations/{id}/photos`, ADR 0147) through XMLHttpRequest,
 * whose upload events give the progress of a zip of up to 200 MB; the answer is the server's report.
 */
export async function uploadPhotoZip(generationId: number, zip: File, onProgress: (p: UploadProgress) => void, signal?: AbortSignal): Promise<PhotoZipReport> {
  const form = new FormData();
  // A large zip goes by resumable upload (ADR 0150): a dropped connection resumes where it stopped.
  if (zip.size >= RESUMABLE_FROM_BYTES && typeof XMLHttpRequest !== 'undefined') {
    form.append('photos_upload', await sendFileResumable(zip, 'photos', onProgress, signal));
    onProgress({ loaded: zip.size, total: zip.size });
  } else form.append('photos', zip, zip.name);
  return (await uploadClient(onProgress).call(endpoints.imports.addPhotos, { params: { id: generationId }, body: form, signal })).data;
}

/**
 * The batch page's photos zip (ADR 0147): until launch, whoever makes batches sends a zip of photos
 * named by candidate code; the page shows the upload's progress, then what became of every file —
 * added (with what will print poorly), matched to no candidate, or refused and why.
 */
export function PhotoZipUpload({ batch, upload = uploadPhotoZip }: { batch: Pick<GenerationView, 'id'>; upload?: typeof uploadPhotoZip }) {
  const {
    t,
    i18n: { language },
  } = useTranslation();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [report, setReport] = useState<PhotoZipReport | null>(null);
  const [error, setError] = useState<Message | null>(null);
  const messageText = useMessageText();
  const controller = useRef<AbortController | null>(null);
  const sending = progress !== null;

  async function send() {
    if (!file) {
      setError(keyMessage('photoZip.required'));
      return;
    }
    if (file.size > IMPORT_LIMITS.photosMaxBytes) {
      setError(keyMessage('photoZip.tooLarge', { max: bytesMessage(IMPORT_LIMITS.photosMaxBytes) }));
      return;
    }
    setError(null);
    setReport(null);
    setProgress({ loaded: 0, total: file.size });
    controller.current = new AbortController();
    try {
      setReport(await upload(batch.id, file, setProgress, controller.current.signal));
      await queryClient.invalidateQueries({ queryKey: ['generations'] });
    } catch (failure) {
      if (failure instanceof DOMException && failure.name === 'AbortError') setError(keyMessage('photoZip.cancelled'));
      else setError(isApiError(failure) ? textMessage(Object.values(failure.fieldErrors)[0]?.[0] ?? failure.message) : keyMessage('errors.generic'));
    } finally {
      setProgress(null);
      controller.current = null;
    }
  }

  const percent = progress && progress.total > 0 ? Math.min(100, Math.floor((progress.loaded / progress.total) * 100)) : 0;
  const progressText = progress ? t('photoZip.progress', { percent, sent: formatBytes(progress.loaded, language), total: formatBytes(progress.total, language) }) : '';
  return (
    <section className="card stack" aria-labelledby="photo-zip-title" data-testid="photo-zip">
      <h2 id="photo-zip-title">{t('photoZip.title')}</h2>
      <p className="muted">{t('photoZip.help', { max: formatBytes(IMPORT_LIMITS.photosMaxBytes, language) })}</p>
      <div className="field">
        <label className="field__label" htmlFor="photo-zip-file">
          {t('photoZip.file')}
        </label>
        <input
          id="photo-zip-file"
          type="file"
          accept=".zip,application/zip"
          disabled={sending}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'photo-zip-error' : undefined}
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setError(null);
          }}
        />
      </div>
      {error ? (
        <p id="photo-zip-error" className="field__error" role="alert">
          {messageText(error)}
        </p>
      ) : null}
      {progress ? (
        <div className="stack" data-testid="photo-zip-progress">
          <label htmlFor="photo-zip-bar" className="field__label">
            {progress.loaded >= progress.total ? t('photoZip.reading') : t('photoZip.sending')}
          </label>
          <progress id="photo-zip-bar" max={100} value={percent} aria-valuetext={progressText} style={{ width: '100%' }} />
          <p className="muted" aria-live="polite">
            {progressText}
          </p>
          {progress.reconnecting ? (
            <p className="alert alert--info" role="status" data-testid="photo-zip-reconnecting">
              {t('checkFile.uploadReconnecting')}
            </p>
          ) : null}
        </div>
      ) : null}
      <p className="actions">
        <button type="button" className="button" onClick={() => void send()} disabled={sending} aria-busy={sending}>
          {t('photoZip.send')}
        </button>
        {sending ? (
          <button type="button" className="button button--secondary" onClick={() => controller.current?.abort()}>
            {t('photoZip.cancel')}
          </button>
        ) : null}
      </p>
      {report ? <PhotoZipReportView report={report} /> : null}
    </section>
  );
}

/** What became of every file of the zip, in lists that wrap at phone width. */
export function PhotoZipReportView({ report }: { report: PhotoZipReport }) {
  const { t } = useTranslation();
  const warned = report.added.filter((a) => a.warnings.length > 0);
  return (
    <div className="stack" data-testid="photo-zip-report">
      <p role="status" className={report.refused_count + report.unmatched_count === 0 ? 'alert alert--success' : 'alert alert--info'}>
        {report.message}
      </p>
      <ul className="counters">
        <li className="counter">
          <span className="counter__value" data-testid="photo-zip-added">
            {report.added_count}
          </span>
          <span className="counter__label">{t('photoZip.added')}</span>
        </li>
        <li className="counter">
          <span className="counter__value" data-testid="photo-zip-unmatched">
            {report.unmatched_count}
          </span>
          <span className="counter__label">{t('photoZip.unmatched')}</span>
        </li>
        <li className="counter">
          <span className="counter__value" data-testid="photo-zip-refused">
            {report.refused_count}
          </span>
          <span className="counter__label">{t('photoZip.refused')}</span>
        </li>
        <li className="counter">
          <span className="counter__value" data-testid="photo-zip-without">
            {report.without_photo}
          </span>
          <span className="counter__label">{t('photoZip.withoutPhoto')}</span>
        </li>
      </ul>
      <FileList title={t('photoZip.refusedTitle')} testId="photo-zip-refused-list" items={report.refused.map((r) => ({ key: r.file, text: r.message }))} />
      <FileList
        title={t('photoZip.warningsTitle')}
        testId="photo-zip-warnings"
        items={warned.flatMap((a) => a.warnings.map((w) => ({ key: `${a.file}-${w.code}`, text: `${a.candidate_code} — ${w.message}` })))}
      />
      <FileList title={t('photoZip.unmatchedTitle')} testId="photo-zip-unmatched-list" items={report.unmatched.map((u) => ({ key: u.file, text: u.message }))} />
    </div>
  );
}

function FileList({ title, items, testId }: { title: string; items: { key: string; text: string }[]; testId: string }) {
  if (!items.length) return null;
  return (
    <details open data-testid={testId}>
      <summary>
        {title} ({items.length})
      </summary>
      <ul className="stack" style={{ overflowWrap: 'anywhere' }}>
        {items.map((item) => (
          <li key={item.key}>{item.text}</li>
        ))}
      </ul>
    </details>
  );
}
