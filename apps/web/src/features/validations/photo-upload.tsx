import { PHOTO_UPLOAD_MAX_BYTES } from '@sceau/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/dialog';
import { FileDrop } from '@/components/file-drop';
import { formatBytes } from '@/lib/format-bytes';
import { failureMessage, keyMessage, type Message } from '@/lib/message';

const ACCEPT = 'image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp';

/**
 * Sends a photo for a candidate imported without one: a JPEG, PNG or WebP, previewed before it is
 * sent; the server normalises it as the import does, and it then waits for validation.
 */
export function PhotoUploadDialog({ name, onUpload, onClose }: { name: string | null; onUpload: (file: File) => Promise<unknown>; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the dialog is reset whenever it opens for another candidate (`name`).
  useEffect(() => {
    setFile(null);
    setError(null);
  }, [name]);
  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) {
      setError(keyMessage('validations.upload.required'));
      return;
    }
    setBusy(true);
    try {
      await onUpload(file);
      onClose();
    } catch (failure) {
      setError(failureMessage(failure, 'photo'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={name !== null}
      title={t('validations.upload.title')}
      description={name ? t('validations.upload.text', { name }) : undefined}
      onClose={busy ? () => undefined : onClose}
    >
      <form className="form stack" onSubmit={(e) => void submit(e)} noValidate data-testid="photo-upload">
        <FileDrop
          id="photo-upload-file"
          label={t('validations.upload.file')}
          hint={t('validations.upload.hint', { max: formatBytes(PHOTO_UPLOAD_MAX_BYTES, i18n.language) })}
          accept={ACCEPT}
          maxBytes={PHOTO_UPLOAD_MAX_BYTES}
          file={file}
          error={error}
          onChange={(next, problem) => {
            setFile(next);
            setError(problem);
          }}
        />
        {preview ? (
          <img src={preview} alt={t('validations.upload.previewAlt', { name })} style={{ width: 150, aspectRatio: '3 / 4', objectFit: 'cover', borderRadius: 4 }} />
        ) : null}
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button" disabled={busy} aria-busy={busy}>
            {busy ? t('validations.upload.sending') : t('validations.upload.send')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
