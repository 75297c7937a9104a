import { NAME_MIN_LENGTH, SIGNATURE_MAX_BYTES, type SignatureKind, type SignatureView } from '@sceau/contracts';
import { useRef, useState, type DragEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/dialog';
import { describedBy, FormField } from '@/components/form-field';
import { useDeleteSignature, useSaveSignature, type SignatureAbilities } from '@/features/signatures/signatures-api';
import { useFlashStore } from '@/lib/flash-context';
import { formatDateTime } from '@/lib/format';
import { isApiError } from '@/lib/http';
import { failureMessage, keyMessage, textMessage, useMessageText, type Message } from '@/lib/message';
import { currentLocale } from '@/lib/i18n';
import { useAuthorizedBlobUrl, useFilePreviewUrl } from '@/lib/use-blob-url';

export const SIGNATURE_TYPES = ['image/png', 'image/jpeg'];
const TITLE_MIN_LENGTH = 2;

/** The fields' errors, written when shown (a language chosen afterwards applies to them). */
type Errors = Partial<Record<'name' | 'title' | 'image', Message>>;

/** Checked here too so that a wrong file is refused before it travels (the server checks the content). */
export function checkSignatureFile(file: File): { key: 'errors:field.image_type' | 'errors:field.image_too_large'; params?: { size: number } } | null {
  if (!SIGNATURE_TYPES.includes(file.type)) return { key: 'errors:field.image_type' };
  if (file.size > SIGNATURE_MAX_BYTES) return { key: 'errors:field.image_too_large', params: { size: SIGNATURE_MAX_BYTES / 1024 / 1024 } };
  return null;
}

function CurrentSignature({ signature }: { signature: SignatureView }) {
  const { t, i18n } = useTranslation();
  const image = useAuthorizedBlobUrl(signature.image_url);
  return (
    <div className="signature__current">
      <div className="signature__image">
        {image.url ? (
          <img src={image.url} alt={t('signatures.imageAlt', { name: signature.name })} width={signature.width} height={signature.height} />
        ) : (
          <span className="muted">{image.failed ? t('signatures.imageFailed') : t('common.loading')}</span>
        )}
      </div>
      <dl className="signature__facts">
        <div>
          <dt>{t('signatures.name')}</dt>
          <dd>{signature.name}</dd>
        </div>
        <div>
          <dt>{t('signatures.titleField')}</dt>
          <dd>{signature.title}</dd>
        </div>
        <div>
          <dt>{t('signatures.updated')}</dt>
          <dd>
            {formatDateTime(signature.updated_at, currentLocale(i18n))}
            {signature.updated_by ? ` — ${signature.updated_by}` : ''}
          </dd>
        </div>
      </dl>
    </div>
  );
}

/**
 * One official signature: what is on file, and the form to add, replace or remove it, each offered
 * only if the abilities sent with the signatures allow it (a scoped admin reads but changes nothing).
 */
export function SignatureCard({ kind, signature, abilities }: { kind: SignatureKind; signature: SignatureView | null; abilities: SignatureAbilities }) {
  const { t } = useTranslation();
  const flash = useFlashStore();
  const save = useSaveSignature();
  const remove = useDeleteSignature();
  const [name, setName] = useState(signature?.name ?? '');
  const [title, setTitle] = useState(signature?.title ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<Message | null>(null);
  const messageText = useMessageText();
  const [dragging, setDragging] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const preview = useFilePreviewUrl(file);
  const fileInput = useRef<HTMLInputElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const titleInput = useRef<HTMLInputElement>(null);
  const id = `signature-${kind}`;

  function choose(next: File | undefined) {
    if (!next) return;
    const problem = checkSignatureFile(next);
    if (problem) {
      setFile(null);
      setErrors((e) => ({ ...e, image: keyMessage(problem.key, problem.params) }));
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
    setErrors(({ image: _dropped, ...rest }) => rest);
    setFile(next);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const next: Errors = {};
    if (name.trim().length < NAME_MIN_LENGTH) next.name = keyMessage('signatures.nameMin', { min: NAME_MIN_LENGTH });
    if (title.trim().length < TITLE_MIN_LENGTH) next.title = keyMessage('signatures.titleMin', { min: TITLE_MIN_LENGTH });
    if (!file) next.image = keyMessage('errors:field.file_required');
    else {
      const problem = checkSignatureFile(file);
      if (problem) next.image = keyMessage(problem.key, problem.params);
    }
    setErrors(next);
    if (next.name) return nameInput.current?.focus();
    if (next.title) return titleInput.current?.focus();
    if (next.image || !file) return fileInput.current?.focus();
    try {
      const answer = await save.mutateAsync({ kind, name: name.trim(), title: title.trim(), image: file });
      flash.pushText(answer.message, 'success');
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
    } catch (error) {
      setFormError(failureMessage(error));
      if (!isApiError(error)) return;
      const fields = error.fieldErrors;
      setErrors({ name: textMessage(fields.name?.[0]), title: textMessage(fields.title?.[0]), image: textMessage(fields.image?.[0] ?? fields.kind?.[0]) });
    }
  }

  async function onDelete() {
    try {
      const answer = await remove.mutateAsync(kind);
      flash.pushText(answer.message, 'success');
      setConfirming(false);
    } catch {
      // Shown in the dialog.
    }
  }

  const heading = t(`signatures.kinds.${kind}`);
  // Saving over a signature on file replaces it; otherwise it adds one.
  const maySave = signature ? abilities.replace : abilities.add;
  const mayRemove = signature !== null && abilities.remove;
  const deleteButton = (
    <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
      {t('common.delete')}
    </button>
  );

  return (
    <section className="card signature" aria-labelledby={`${id}-title`} data-testid={id}>
      <h2 id={`${id}-title`}>{heading}</h2>
      {signature ? <CurrentSignature signature={signature} /> : <p className="muted">{t('signatures.none')}</p>}

      {maySave ? (
        <form className="form signature__form" noValidate onSubmit={(event) => void onSubmit(event)} aria-label={t('signatures.formLabel', { kind: heading })}>
          <h3>{signature ? t('signatures.replace') : t('signatures.add')}</h3>
          {formError ? (
            <div className="alert alert--error" role="alert">
              {messageText(formError)}
            </div>
          ) : null}
          <FormField id={`${id}-name`} label={t('signatures.name')} error={messageText(errors.name)}>
            <input
              id={`${id}-name`}
              ref={nameInput}
              type="text"
              value={name}
              onChange={(event) => setName(event.target.value)}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={describedBy(`${id}-name`, { error: !!errors.name })}
            />
          </FormField>
          <FormField id={`${id}-role`} label={t('signatures.titleField')} hint={t('signatures.titleHint')} error={messageText(errors.title)}>
            <input
              id={`${id}-role`}
              ref={titleInput}
              type="text"
              value={title}
              onChange={(event) => setTitle(event.target.value)}
              aria-invalid={errors.title ? true : undefined}
              aria-describedby={describedBy(`${id}-role`, { hint: true, error: !!errors.title })}
            />
          </FormField>
          <FormField id={`${id}-image`} label={t('signatures.image')} hint={t('signatures.imageHint')} error={messageText(errors.image)}>
            {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is a mouse shortcut; the file input inside is the keyboard's way. */}
            <div
              className={dragging ? 'dropzone dropzone--active' : 'dropzone'}
              onDragOver={(event) => {
                event.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
              data-testid={`${id}-dropzone`}
            >
              <input
                id={`${id}-image`}
                ref={fileInput}
                type="file"
                accept={SIGNATURE_TYPES.join(',')}
                aria-invalid={errors.image ? true : undefined}
                aria-describedby={describedBy(`${id}-image`, { hint: true, error: !!errors.image })}
                onChange={(event) => choose(event.target.files?.[0])}
              />
              <span className="dropzone__text" aria-hidden="true">
                {t('signatures.drop')}
              </span>
            </div>
          </FormField>
          {preview && file ? (
            <figure className="signature__preview">
              <img src={preview} alt={t('signatures.previewAlt')} />
              <figcaption className="muted">
                {file.name} — {Math.ceil(file.size / 1024)} Ko
              </figcaption>
            </figure>
          ) : null}
          <div className="actions">
            <button type="submit" className="button" disabled={save.isPending} aria-busy={save.isPending}>
              {save.isPending ? t('common.saving') : t('signatures.save')}
            </button>
            {mayRemove ? deleteButton : null}
          </div>
        </form>
      ) : mayRemove ? (
        <div className="actions">{deleteButton}</div>
      ) : null}

      <ConfirmDialog
        open={confirming}
        danger
        title={t('signatures.deleteTitle')}
        message={t('signatures.deleteConfirm', { kind: heading })}
        confirmLabel={t('common.delete')}
        busy={remove.isPending}
        error={remove.isError ? (isApiError(remove.error) ? remove.error.message : t('errors.generic')) : null}
        onConfirm={() => void onDelete()}
        onClose={() => {
          remove.reset();
          setConfirming(false);
        }}
      />
    </section>
  );
}
