import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describedBy } from '@/components/form-field';
import { formatBytes } from '@/lib/format-bytes';
import { bytesMessage, keyMessage, useMessageText, type Message } from '@/lib/message';

export interface FileDropProps {
  id: string;
  label: string;
  /** What the file must be (types, size); shown under the label. */
  hint: string;
  accept: string;
  maxBytes: number;
  file: File | null;
  /** Written when shown, so a language chosen after it appeared applies (lib/message.ts). */
  error: Message | null;
  optional?: boolean;
  onChange: (file: File | null, error: Message | null) => void;
}

/**
 * One file, chosen with the picker or dropped on the zone; a file over `maxBytes` is refused here
 * (the server refuses it too). The chosen file's name and size are shown with a way to remove it.
 */
export function FileDrop({ id, label, hint, accept, maxBytes, file, error, optional = false, onChange }: FileDropProps) {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  function choose(next: File | undefined) {
    if (!next) return;
    if (next.size > maxBytes) {
      onChange(null, keyMessage('upload.tooLarge', { name: next.name, max: bytesMessage(maxBytes) }));
      if (input.current) input.current.value = '';
      return;
    }
    onChange(next, null);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  }

  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label htmlFor={id} className="field__label">
        {label}
        {optional ? <span className="muted"> ({t('common.optional')})</span> : null}
      </label>
      <p id={`${id}-hint`} className="field__hint">
        {hint}
      </p>
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
          id={id}
          ref={input}
          type="file"
          accept={accept}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, { hint: true, error: !!error })}
          onChange={(event) => choose(event.target.files?.[0])}
        />
        <span className="dropzone__text" aria-hidden="true">
          {t('upload.drop')}
        </span>
        {file ? (
          <p className="dropzone__file" data-testid={`${id}-chosen`}>
            <span>
              {file.name} — {formatBytes(file.size, i18n.language)}
            </span>
            <button
              type="button"
              className="button button--ghost button--small"
              aria-label={t('upload.removeOf', { name: file.name })}
              onClick={() => {
                if (input.current) input.current.value = '';
                onChange(null, null);
                input.current?.focus();
              }}
            >
              {t('upload.remove')}
            </button>
          </p>
        ) : null}
      </div>
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {messageText(error)}
        </p>
      ) : null}
    </div>
  );
}
