import { IMPORT_COLUMNS, IMPORT_LIMITS } from '@sceau/contracts';
import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorAlert } from '@/components/error-alert';
import { FileDrop } from '@/components/file-drop';
import { describedBy, FormField } from '@/components/form-field';
import { generationTypeLabel } from '@/components/generation-status';
import { Pagination } from '@/components/pagination';
import { ImportProgress } from '@/features/generations/import-progress';
import { useMyImportations } from '@/features/generations/importations-api';
import { ProvinceSelect, SessionSelect, useDefaultSession } from '@/features/generations/issuing-fields';
import { ProvincePlaces } from '@/features/generations/province-places';
import { checkUpload, type UploadProgress } from '@/features/generations/check-upload';
import { PhotoCheckNotes } from '@/features/generations/photo-check-notes';
import { downloadCheckErrors, downloadImportExample, startImport, useTemplate, type ImportCheckResult } from '@/features/generations/issuing-api';
import { TemplatePreview } from '@/features/generations/template-preview';
import { useFlashStore } from '@/lib/flash-context';
import { formatBytes } from '@/lib/format-bytes';
import { isApiError } from '@/lib/http';
import { failureMessage, keyMessage, textMessage, useMessageText, type Message } from '@/lib/message';
import { useSession } from '@/lib/session-context';
import { useDocumentTitle } from '@/lib/use-document-title';

const ERRORS_PER_PAGE = 25;
const LIST_ACCEPT = '.csv,.xlsx,.ods,.fods,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.oasis.opendocument.spreadsheet';
const PHOTOS_ACCEPT = '.zip,application/zip,application/x-zip-compressed';

/** The fields' errors, written when shown (a language chosen afterwards applies to them). */
type Errors = Partial<Record<'session' | 'province' | 'file' | 'photos' | 'title', Message>>;

/** Step 2 of issuing: the list of candidates, checked row by row, then imported as one job. */
export function CheckFilePage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('pages.checkFile.title'));
  const params = useParams();
  const templateId = Number(params.id);
  const template = useTemplate(templateId);
  const { profile } = useSession();
  const defaultSession = useDefaultSession();

  const [session, setSession] = useState<string | null>(null);
  const [province, setProvince] = useState(profile?.scope.province_id ? String(profile.scope.province_id) : '');
  const [file, setFile] = useState<File | null>(null);
  const [photos, setPhotos] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<Message | null>(null);
  const messageText = useMessageText();
  const [checking, setChecking] = useState(false);
  // A large upload's progress, and the way to cancel it.
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const upload = useRef<AbortController | null>(null);
  const [result, setResult] = useState<ImportCheckResult | null>(null);
  // The form changed since the last check: the import waits for a new one.
  const [stale, setStale] = useState(false);
  // The draft of the first check, sent back so that a new upload replaces its list.
  const [generationId, setGenerationId] = useState<number | null>(null);
  // The import followed is in the address (`?importation=`), so that leaving and coming back finds it.
  const [searchParams, setSearchParams] = useSearchParams();
  const fromAddress = Number(searchParams.get('importation'));
  const followImport = (id: number | null) => setSearchParams(id ? { importation: String(id) } : {}, { replace: true });
  // Without one there, the user's import of this template still running (the page was left during it).
  const [wantsAnother, setWantsAnother] = useState(false);
  const running = useMyImportations(true);
  const resumable = wantsAnother ? undefined : running.data?.find((i) => i.generation.template_id === templateId);
  const importation = Number.isInteger(fromAddress) && fromAddress > 0 ? fromAddress : (resumable?.id ?? null);
  const followed = running.data?.find((i) => i.id === importation);
  const lookingForRunning = importation === null && running.isPending && running.fetchStatus === 'fetching';
  const form = useRef<HTMLFormElement>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const sessionValue = session ?? defaultSession;

  useEffect(() => {
    if (result) resultHeading.current?.focus();
  }, [result]);

  const notFound = !(Number.isInteger(templateId) && templateId > 0) || (isApiError(template.error) && template.error.status === 404);
  if (notFound) {
    return (
      <section className="container page" aria-labelledby="template-not-found" data-testid="template-not-found">
        <div className="card coming-soon__card">
          <h1 id="template-not-found">{t('checkFile.templateNotFound')}</h1>
          <p className="lead">{t('checkFile.templateNotFoundText')}</p>
          <Link className="button button--secondary" to="/certificates">
            {t('checkFile.backToTemplates')}
          </Link>
        </div>
      </section>
    );
  }

  function changed<T>(set: (value: T) => void) {
    return (value: T) => {
      set(value);
      if (result) setStale(true);
    };
  }

  async function onCheck(event: FormEvent) {
    event.preventDefault();
    await runCheck(null);
  }

  /** Sends the form to be checked; `sheet` names the workbook's sheet to read (null: the server's choice). */
  async function runCheck(sheet: string | null) {
    setFormError(null);
    const next: Errors = {};
    if (!sessionValue) next.session = keyMessage('issuing.sessionRequired');
    if (!province) next.province = keyMessage('issuing.provinceRequired');
    if (!file) next.file = errors.file ?? keyMessage('checkFile.fileRequired');
    if (errors.photos) next.photos = errors.photos;
    setErrors(next);
    if (Object.keys(next).length > 0 || !file) {
      window.setTimeout(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      return;
    }
    setChecking(true);
    setProgress(null);
    const controller = new AbortController();
    upload.current = controller;
    try {
      const answer = await checkUpload({
        templateId,
        sessionId: Number(sessionValue),
        provinceId: Number(province),
        generationType: template.data?.generation_type ?? null,
        file,
        photos,
        generationId,
        sheet,
        signal: controller.signal,
        onProgress: setProgress,
      });
      setGenerationId(answer.generation_id);
      setResult(answer);
      setStale(false);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') setFormError(keyMessage('checkFile.uploadCancelled'));
      else if (isApiError(error)) {
        const f = error.fieldErrors;
        setErrors({ session: textMessage(f.session_id?.[0]), province: textMessage(f.province_id?.[0]), file: textMessage(f.file?.[0]), photos: textMessage(f.photos?.[0]) });
        setFormError(failureMessage(error, 'template', 'generation_id'));
        window.setTimeout(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      } else setFormError(keyMessage('errors.generic'));
    } finally {
      upload.current = null;
      setChecking(false);
      setProgress(null);
    }
  }

  const typeLabel = template.data ? generationTypeLabel(t, template.data.generation_type) : null;

  return (
    <div className="container page stack">
      <p>
        <Link to="/certificates">{t('checkFile.backToTemplates')}</Link>
      </p>
      <header className="page-header">
        <div>
          <h1>{t('pages.checkFile.title')}</h1>
          <p className="lead">{t('checkFile.intro')}</p>
        </div>
      </header>

      <section className="card template-summary" aria-labelledby="chosen-template" data-testid="chosen-template">
        {template.data ? (
          <>
            <div className="template-summary__preview">
              <TemplatePreview design={template.data.design} label={t('certificates.previewOf', { name: template.data.name })} />
            </div>
            <div>
              <h2 id="chosen-template">{t('checkFile.template', { name: template.data.name })}</h2>
              <p className="muted">
                {typeLabel} · {template.data.owner.name}
              </p>
              <Link to="/certificates">{t('checkFile.changeTemplate')}</Link>
            </div>
          </>
        ) : template.isError ? (
          <ErrorAlert error={template.error} onRetry={() => void template.refetch()} />
        ) : (
          <p id="chosen-template" role="status">
            {t('common.loading')}
          </p>
        )}
      </section>

      {lookingForRunning ? (
        <p role="status">{t('common.loading')}</p>
      ) : importation !== null ? (
        <ImportProgress
          key={importation}
          importationId={importation}
          generationId={followed?.generation_id ?? generationId ?? undefined}
          title={followed?.generation.title}
          onRetry={(batchId) => {
            // The failed import's draft takes the corrected list.
            setGenerationId(batchId);
            setWantsAnother(true);
            followImport(null);
          }}
          onAnother={() => {
            setWantsAnother(true);
            setGenerationId(null);
            setResult(null);
            followImport(null);
          }}
        />
      ) : (
        <>
          <form ref={form} className="card form stack" noValidate onSubmit={(event) => void onCheck(event)} aria-labelledby="check-form-title">
            <h2 id="check-form-title">{t('checkFile.formTitle')}</h2>
            {formError ? (
              <div className="alert alert--error" role="alert" data-testid="check-error">
                {messageText(formError)}
              </div>
            ) : null}
            <div className="grid-2">
              <SessionSelect id="check-session" value={sessionValue} onChange={changed(setSession)} error={messageText(errors.session)} />
              <ProvinceSelect id="check-province" value={province} onChange={changed(setProvince)} error={messageText(errors.province)} />
            </div>
            <FileDrop
              id="check-file"
              label={t('checkFile.file')}
              hint={t('checkFile.fileHint', { max: formatBytes(IMPORT_LIMITS.listMaxBytes, i18n.language), rows: IMPORT_LIMITS.maxRows.toLocaleString(i18n.language) })}
              accept={LIST_ACCEPT}
              maxBytes={IMPORT_LIMITS.listMaxBytes}
              file={file}
              error={errors.file ?? null}
              onChange={(next, error) => {
                changed(setFile)(next);
                setErrors((e) => ({ ...e, file: error ?? undefined }));
              }}
            />
            <FileDrop
              id="check-photos"
              label={t('checkFile.photos')}
              hint={t('checkFile.photosHint', { max: formatBytes(IMPORT_LIMITS.photosMaxBytes, i18n.language), photoMax: formatBytes(IMPORT_LIMITS.photoMaxBytes, i18n.language) })}
              accept={PHOTOS_ACCEPT}
              maxBytes={IMPORT_LIMITS.photosMaxBytes}
              file={photos}
              optional
              error={errors.photos ?? null}
              onChange={(next, error) => {
                changed(setPhotos)(next);
                setErrors((e) => ({ ...e, photos: error ?? undefined }));
              }}
            />
            {generationId !== null ? <p className="muted">{t('checkFile.replaceNote')}</p> : null}
            <button type="submit" className="button" disabled={checking} aria-busy={checking}>
              {checking ? t('checkFile.checking') : generationId !== null ? t('checkFile.checkAgain') : t('checkFile.check')}
            </button>
            {checking && progress ? <UploadBar progress={progress} onCancel={() => upload.current?.abort()} /> : null}
          </form>

          {result ? (
            <CheckResult
              result={result}
              stale={stale}
              checking={checking}
              onSheet={(sheet) => void runCheck(sheet)}
              headingRef={resultHeading}
              onImport={async (title) => {
                const id = await startImport(result.generation_id, title, result.list_id);
                followImport(id);
              }}
            />
          ) : null}

          <ProvincePlaces provinceId={province ? Number(province) : null} />
          <ColumnsHelp />
        </>
      )}
    </div>
  );
}

/** A large upload on its way: how much is sent (percent and size), and a way to stop it. */
function UploadBar({ progress, onCancel }: { progress: UploadProgress; onCancel: () => void }) {
  const { t, i18n } = useTranslation();
  const percent = progress.total > 0 ? Math.min(100, Math.floor((progress.loaded / progress.total) * 100)) : 0;
  const sent = progress.loaded >= progress.total;
  return (
    <div className="stack" data-testid="upload-progress">
      <label htmlFor="upload-bar" className="field__label">
        {sent ? t('checkFile.serverChecking') : t('checkFile.uploading')}
      </label>
      <progress
        id="upload-bar"
        max={100}
        value={percent}
        aria-valuetext={t('checkFile.uploadProgress', { percent, sent: formatBytes(progress.loaded, i18n.language), total: formatBytes(progress.total, i18n.language) })}
      />
      <p className="muted" aria-live="polite">
        {t('checkFile.uploadProgress', { percent, sent: formatBytes(progress.loaded, i18n.language), total: formatBytes(progress.total, i18n.language) })}
      </p>
      {progress.reconnecting ? (
        <p className="alert alert--info" role="status" data-testid="upload-reconnecting">
          {t('checkFile.uploadReconnecting')}
        </p>
      ) : null}
      <p>
        <button type="button" className="button button--secondary" onClick={onCancel} data-testid="upload-cancel">
          {t('checkFile.uploadCancel')}
        </button>
      </p>
    </div>
  );
}

/** The sheet the check read, the others to choose from, and the lines left out under the list. */
function SheetAndIgnored({ result, checking, onSheet }: { result: ImportCheckResult; checking: boolean; onSheet: (sheet: string) => void }) {
  const { t } = useTranslation();
  const ignored = result.ignored ?? [];
  const sheets = result.sheets ?? [];
  return (
    <>
      {result.sheet ? (
        sheets.length > 1 ? (
          <FormField id="check-sheet" label={t('checkFile.sheet')} hint={t('checkFile.sheetHint', { count: sheets.length })} error={null}>
            <select
              id="check-sheet"
              value={result.sheet}
              disabled={checking}
              aria-describedby={describedBy('check-sheet', { hint: true })}
              onChange={(event) => onSheet(event.target.value)}
              data-testid="check-sheet"
            >
              {sheets.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </FormField>
        ) : (
          <p className="muted" data-testid="check-sheet-read">
            {t('checkFile.sheetRead', { sheet: result.sheet })}
          </p>
        )
      ) : null}
      {ignored.length > 0 ? (
        <details data-testid="check-ignored">
          <summary>{t('checkFile.ignoredTitle', { count: ignored.length })}</summary>
          <p className="muted">{t('checkFile.ignoredHint')}</p>
          <ul>
            {ignored.map((line) => (
              <li key={line.row}>{t('checkFile.ignoredLine', { row: line.row, text: line.text })}</li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}

function CheckResult({
  result,
  stale,
  checking,
  onSheet,
  headingRef,
  onImport,
}: {
  result: ImportCheckResult;
  stale: boolean;
  checking: boolean;
  onSheet: (sheet: string) => void;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onImport: (title: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [shownFor, setShownFor] = useState(result);
  if (shownFor !== result) {
    setShownFor(result);
    setPage(1);
  }
  const pages = Math.max(1, Math.ceil(result.errors.length / ERRORS_PER_PAGE));
  const rows = result.errors.slice((page - 1) * ERRORS_PER_PAGE, page * ERRORS_PER_PAGE);
  const clean = result.error_count === 0 && result.valid_rows > 0;
  const columnLabel = (column: string | null) => (column ? column : t('checkFile.wholeFile'));

  return (
    <section className="card stack" aria-labelledby="check-result-title" data-testid="check-result" data-error-count={result.error_count}>
      <h2 id="check-result-title" ref={headingRef} tabIndex={-1}>
        {t('checkFile.resultTitle')}
      </h2>
      <ul className="counters" aria-label={t('checkFile.summary')}>
        <li className="counter">
          <span className="counter__value" data-testid="check-rows">
            {result.rows}
          </span>
          <span className="counter__label">{t('checkFile.rows')}</span>
        </li>
        <li className="counter">
          <span className="counter__value" data-testid="check-valid-rows">
            {result.valid_rows}
          </span>
          <span className="counter__label">{t('checkFile.validRows')}</span>
        </li>
        <li className="counter">
          <span className="counter__value" data-testid="check-error-count">
            {result.error_count}
          </span>
          <span className="counter__label">{t('checkFile.errorCount')}</span>
        </li>
        {result.photos ? (
          <li className="counter">
            <span className="counter__value" data-testid="check-photos">
              {result.photos.matched} / {result.photos.files}
            </span>
            <span className="counter__label">{t('checkFile.photosMatched')}</span>
          </li>
        ) : null}
      </ul>
      <p role="status" className={clean ? 'alert alert--success' : 'alert alert--error'} data-testid="check-verdict">
        {clean ? t('checkFile.clean', { count: result.valid_rows }) : result.error_count > 0 ? t('checkFile.hasErrors', { count: result.error_count }) : t('checkFile.noRows')}
      </p>
      <SheetAndIgnored result={result} checking={checking} onSheet={onSheet} />
      <PhotoCheckNotes photos={result.photos} />

      {result.errors.length > 0 ? (
        <>
          {result.error_count > result.errors.length ? <p className="muted">{t('checkFile.firstErrors', { count: result.errors.length, total: result.error_count })}</p> : null}
          <div className="table-wrap" role="region" aria-label={t('checkFile.errorsCaption')} tabIndex={0}>
            <table className="table" data-testid="check-errors">
              <caption>{t('checkFile.errorsCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('checkFile.errorRow')}</th>
                  <th scope="col">{t('checkFile.errorColumn')}</th>
                  <th scope="col">{t('checkFile.errorMessage')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((error, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the index only tells apart two identical findings of a list that never reorders.
                  <tr key={`${error.row}-${error.column}-${error.code}-${index}`} data-code={error.code}>
                    <td>{error.row}</td>
                    <td>
                      <code>{columnLabel(error.column)}</code>
                    </td>
                    <td>{error.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 ? (
            <Pagination
              meta={{ current_page: page, last_page: pages, per_page: ERRORS_PER_PAGE, total: result.errors.length }}
              onPage={setPage}
              label={t('checkFile.errorsPagination')}
            />
          ) : null}
          <ErrorsDownload generationId={result.generation_id} />
          <p className="muted">{t('checkFile.fixAndReupload')}</p>
        </>
      ) : null}

      {clean ? stale ? <p className="alert alert--info">{t('checkFile.staleNote')}</p> : <StartImport onImport={onImport} /> : null}
    </section>
  );
}

function StartImport({ onImport }: { onImport: (title: string) => Promise<void> }) {
  const { t } = useTranslation();
  const [title, setTitle] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const [formError, setFormError] = useState<Message | null>(null);
  const messageText = useMessageText();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const trimmed = title.trim();
    if (trimmed.length < 3 || trimmed.length > 200) {
      setError(keyMessage('issuing.titleLength'));
      input.current?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await onImport(trimmed);
    } catch (failure) {
      setBusy(false);
      if (isApiError(failure)) {
        const message = failure.fieldErrors.title?.[0] ?? failure.fieldErrors.titre?.[0];
        if (message) {
          setError(textMessage(message));
          input.current?.focus();
        }
        setFormError(failureMessage(failure, 'generation_id'));
      } else setFormError(keyMessage('errors.generic'));
    }
  }

  return (
    <form className="form" noValidate onSubmit={(event) => void onSubmit(event)} aria-label={t('checkFile.importForm')} data-testid="start-import">
      {formError ? (
        <div className="alert alert--error" role="alert">
          {messageText(formError)}
        </div>
      ) : null}
      <FormField id="import-title" label={t('issuing.batchTitle')} hint={t('issuing.titleHint')} error={messageText(error)}>
        <input
          id="import-title"
          ref={input}
          type="text"
          maxLength={200}
          value={title}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy('import-title', { hint: true, error: !!error })}
          onChange={(event) => setTitle(event.target.value)}
        />
      </FormField>
      <button type="submit" className="button" disabled={busy} aria-busy={busy}>
        {busy ? t('checkFile.importing') : t('checkFile.import')}
      </button>
    </form>
  );
}

/** Every error of the check (not only those listed), as a file to send back to the school (ADR 0143). */
function ErrorsDownload({ generationId }: { generationId: number }) {
  const { t } = useTranslation();
  const flash = useFlashStore();
  const [downloading, setDownloading] = useState<'csv' | 'xlsx' | null>(null);

  function download(format: 'csv' | 'xlsx') {
    setDownloading(format);
    downloadCheckErrors(generationId, format)
      .catch((error: unknown) => flash.pushMessage(failureMessage(error), 'error'))
      .finally(() => setDownloading(null));
  }

  return (
    <div className="stack" data-testid="check-errors-download">
      <p className="muted">{t('checkFile.errorsDownload')}</p>
      <div className="actions">
        <button type="button" className="button button--secondary" onClick={() => download('xlsx')} disabled={downloading !== null} aria-busy={downloading === 'xlsx'}>
          {t('checkFile.errorsXlsx')}
        </button>
        <button type="button" className="button button--secondary" onClick={() => download('csv')} disabled={downloading !== null} aria-busy={downloading === 'csv'}>
          {t('checkFile.errorsCsv')}
        </button>
      </div>
    </div>
  );
}

/** The list's columns, what each expects, and the example to download. */
function ColumnsHelp() {
  const { t } = useTranslation();
  const flash = useFlashStore();
  const [downloading, setDownloading] = useState<'csv' | 'xlsx' | null>(null);

  function download(format: 'csv' | 'xlsx') {
    setDownloading(format);
    downloadImportExample(format)
      .catch((error: unknown) => flash.pushMessage(failureMessage(error), 'error'))
      .finally(() => setDownloading(null));
  }

  return (
    <section className="card stack" aria-labelledby="columns-title" data-testid="columns-help">
      <h2 id="columns-title">{t('checkFile.columnsTitle')}</h2>
      <p>{t('checkFile.columnsIntro')}</p>
      <div className="actions">
        <button type="button" className="button button--secondary" onClick={() => download('csv')} disabled={downloading !== null} aria-busy={downloading === 'csv'}>
          {t('checkFile.exampleCsv')}
        </button>
        <button type="button" className="button button--secondary" onClick={() => download('xlsx')} disabled={downloading !== null} aria-busy={downloading === 'xlsx'}>
          {t('checkFile.exampleXlsx')}
        </button>
      </div>
      <div className="table-wrap" role="region" aria-label={t('checkFile.columnsCaption')} tabIndex={0}>
        <table className="table">
          <caption>{t('checkFile.columnsCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('checkFile.columnHeader')}</th>
              <th scope="col">{t('checkFile.columnRequired')}</th>
              <th scope="col">{t('checkFile.columnExpects')}</th>
            </tr>
          </thead>
          <tbody>
            {IMPORT_COLUMNS.map((column) => (
              <tr key={column.key} data-column={column.key}>
                <th scope="row">
                  <code>{column.key}</code>
                  {column.aliases.length > 0 ? <span className="table__line muted">{t('checkFile.aliases', { names: column.aliases.join(', ') })}</span> : null}
                </th>
                <td>{column.required ? t('checkFile.required') : t('common.optional')}</td>
                <td>{t(`checkFile.columns.${column.key}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">{t('checkFile.columnsNote')}</p>
    </section>
  );
}
