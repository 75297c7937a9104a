import type { ValidationItemView } from '@sceau/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PhotoEditor } from '@/features/validations/photo-editor';
import { PhotoUploadDialog } from '@/features/validations/photo-upload';
import { ReadyNotice, RejectDialog, ValidationStateBadge, candidateName, useChangeOutcome, useSelection, usePhotoObjectUrl } from '@/features/validations/validation-parts';
import { ValidationPage, type ValidationListProps } from '@/features/validations/validation-page';
import { ShortcutHelp, useListShortcuts, type ListShortcuts } from '@/features/validations/validation-tools';
import { fetchOriginalPhoto, useValidationChange } from '@/features/validations/validations-api';

/** /validate-picture/{id}: the batch's candidates with their photos, to validate, edit or reject. */
export function ValidatePicturePage() {
  return (
    <ValidationPage aspect="photos" titleKey="pages.validatePicture.title">
      {(props) => <PhotoGrid {...props} />}
    </ValidationPage>
  );
}

function PhotoGrid({ batch, items, busy, filtered }: ValidationListProps) {
  const { t } = useTranslation();
  const change = useValidationChange();
  const outcome = useChangeOutcome();
  const [rejecting, setRejecting] = useState<ValidationItemView | null>(null);
  const [editing, setEditing] = useState<{ item: ValidationItemView; src: string | null } | null>(null);
  const [uploading, setUploading] = useState<ValidationItemView | null>(null);
  const original = useOriginalPhoto(editing?.item ?? null);
  const selectable = items.filter((i) => !i.rejected && i.photo_url);
  const selection = useSelection(selectable);
  const { chosen } = selection;
  const shortcuts = useListShortcuts(items.length);

  function run(p: Parameters<typeof change.mutateAsync>[0]) {
    return change.mutateAsync(p).then((result) => {
      outcome.handle(result);
      return result;
    });
  }

  return (
    <section className="stack" aria-labelledby="photos-title">
      <h2 id="photos-title" className="section__title section__title--left">
        {t('validations.photos.title')}
      </h2>
      <ReadyNotice generationId={outcome.ready} />
      {items.length > 0 ? <ShortcutHelp shortcuts={shortcuts} editKey="photo" /> : null}
      {batch.abilities.validate_photos && selectable.length > 0 ? (
        <div className="selection-bar" role="region" aria-label={t('validations.selection.label')}>
          <label className="checkbox">
            <input type="checkbox" checked={selection.allChosen} onChange={(e) => selection.selectAll(e.target.checked)} />
            {t('validations.selection.all')}
          </label>
          <span aria-live="polite">{t('validations.selection.count', { count: chosen.length })}</span>
          <button
            type="button"
            className="button button--small"
            disabled={chosen.length === 0 || change.isPending}
            aria-busy={change.isPending}
            onClick={() => {
              run({ kind: 'photos', items: chosen }).then(selection.clear).catch(outcome.fail);
            }}
          >
            {t('validations.selection.validate')}
          </button>
        </div>
      ) : null}
      {items.length === 0 ? (
        <p className="card empty-state" data-testid="validation-empty">
          {filtered ? t('validations.noMatch') : t('validations.empty')}
        </p>
      ) : (
        <ul className="card-grid card-grid--fill" aria-busy={busy} data-testid="photo-grid">
          {items.map((item, index) => (
            <PhotoCard
              key={item.id}
              item={item}
              shortcut={shortcuts.itemProps(index)}
              open={batch.abilities.validate_photos}
              busy={change.isPending}
              selected={selection.isSelected(item.id)}
              onSelect={(on) => selection.toggle(item.id, on)}
              onValidate={() => void run({ kind: 'photo', item: item.id }).catch(outcome.fail)}
              onReject={() => setRejecting(item)}
              onEdit={(src) => setEditing({ item, src })}
              onUpload={() => setUploading(item)}
            />
          ))}
        </ul>
      )}
      <RejectDialog
        name={rejecting ? candidateName(rejecting) : null}
        onReject={(reason) => run({ kind: 'rejectPhoto', item: rejecting!.id, reason })}
        onClose={() => setRejecting(null)}
      />
      <PhotoUploadDialog
        name={uploading ? candidateName(uploading) : null}
        onUpload={(file) => run({ kind: 'uploadPhoto', item: uploading!.id, file })}
        onClose={() => setUploading(null)}
      />
      {editing ? (
        <PhotoEditor
          key={`${editing.item.id}-${original.state}`}
          open
          name={candidateName(editing.item)}
          src={original.state === 'loading' ? null : (original.url ?? editing.src)}
          fromOriginal={original.url !== null}
          onSave={(edits) => run({ kind: 'photo', item: editing.item.id, edits: original.url ? { ...edits, source: 'original' } : edits })}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}

interface PhotoCardProps {
  item: ValidationItemView;
  shortcut: ReturnType<ListShortcuts['itemProps']>;
  open: boolean;
  busy: boolean;
  selected: boolean;
  onSelect: (on: boolean) => void;
  onValidate: () => void;
  onReject: () => void;
  onEdit: (src: string | null) => void;
  onUpload: () => void;
}

function PhotoCard({ item, shortcut, open, busy, selected, onSelect, onValidate, onReject, onEdit, onUpload }: PhotoCardProps) {
  const { t } = useTranslation();
  const name = candidateName(item);
  const photo = usePhotoObjectUrl(item);
  const canAct = open && !item.rejected;
  return (
    <li {...shortcut} className={`card stack ${shortcut.className ?? ''}`} data-testid={`photo-card-${item.id}`}>
      <div style={{ aspectRatio: '3 / 4', background: '#eee', borderRadius: 4, overflow: 'hidden', display: 'grid', placeItems: 'center' }}>
        {photo.url ? (
          <img src={photo.url} alt={t('validations.photos.alt', { name })} style={{ width: '100%', height: '100%', objectFit: 'cover' }} loading="lazy" />
        ) : (
          <span className="muted">{!item.photo_url ? t('validations.photos.none') : photo.failed ? t('validations.photos.failed') : t('common.loading')}</span>
        )}
      </div>
      <div>
        <strong className="cell-line">{name}</strong>
        <span className="cell-line muted">
          {t('validations.code')} <code>{item.candidate_code}</code>
        </span>
        <span className="cell-line muted">
          {item.option.name} · {item.institution.name}
        </span>
      </div>
      <p className="badge-stack">
        <ValidationStateBadge kind="photo" state={item.photo_status} />
        {item.rejected ? <span className="badge badge--danger">{t('validations.rejectedBadge')}</span> : null}
      </p>
      {item.rejected && item.rejection_reason ? <p className="muted">{item.rejection_reason}</p> : null}
      {canAct ? (
        <div className="row-actions">
          {item.photo_url ? (
            <label className="checkbox">
              <input type="checkbox" checked={selected} onChange={(e) => onSelect(e.target.checked)} aria-label={t('validations.selection.one', { name })} />
              {t('validations.selection.select')}
            </label>
          ) : null}
          {item.photo_url && item.photo_status !== 'validated' ? (
            <button
              type="button"
              className="button button--small"
              disabled={busy}
              onClick={onValidate}
              aria-label={t('validations.actions.validateOf', { name })}
              data-shortcut="v"
              aria-keyshortcuts="v"
            >
              {t('validations.actions.validate')}
            </button>
          ) : null}
          {item.photo_url ? (
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => onEdit(photo.url)}
              aria-label={t('validations.actions.editPhotoOf', { name })}
              data-shortcut="e"
              aria-keyshortcuts="e"
            >
              {t('validations.actions.edit')}
            </button>
          ) : (
            <button
              type="button"
              className="button button--small"
              onClick={onUpload}
              aria-label={t('validations.actions.uploadPhotoOf', { name })}
              data-shortcut="e"
              aria-keyshortcuts="e"
            >
              {t('validations.actions.uploadPhoto')}
            </button>
          )}
          <button
            type="button"
            className="button button--danger button--small"
            onClick={onReject}
            aria-label={t('validations.actions.rejectOf', { name })}
            data-shortcut="r"
            aria-keyshortcuts="r"
          >
            {t('validations.actions.reject')}
          </button>
        </div>
      ) : null}
    </li>
  );
}

/**
 * The original of the photo being edited (ADR 0147), as an object URL: the editor crops from it
 * rather than from the stored 300 × 400 copy. `url` stays null when none is kept (the editor then
 * works on the stored photo) or it cannot be had.
 */
function useOriginalPhoto(item: ValidationItemView | null): { state: 'none' | 'loading' | 'done'; url: string | null } {
  const [state, setState] = useState<{ for: string | null; url: string | null }>({ for: null, url: null });
  const id = item?.id ?? null;
  const generationId = item?.generation_id ?? null;
  const photoUrl = item?.photo_url ?? null;
  const wanted = id !== null && photoUrl ? `${id}:${photoUrl}` : null;
  useEffect(() => {
    if (id === null || generationId === null || !photoUrl) return;
    const controller = new AbortController();
    const key = `${id}:${photoUrl}`;
    let objectUrl: string | null = null;
    fetchOriginalPhoto({ id, generation_id: generationId, photo_url: photoUrl }, controller.signal)
      .then((blob) => {
        objectUrl = URL.createObjectURL(blob);
        setState({ for: key, url: objectUrl });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ for: key, url: null });
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [id, generationId, photoUrl]);
  if (!wanted) return { state: 'none', url: null };
  if (state.for !== wanted) return { state: 'loading', url: null };
  return { state: 'done', url: state.url };
}
