import { PHOTO_EDIT_LIMITS, type PhotoEdits } from '@sceau/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import ReactCrop, { type PercentCrop } from 'react-image-crop';
import 'react-image-crop/dist/ReactCrop.css';
import { Dialog } from '@/components/dialog';
import { failureMessage, keyMessage, useMessageText, type Message } from '@/lib/message';

const L = PHOTO_EDIT_LIMITS;
type Slider = 'brightness' | 'contrast' | 'hue' | 'width' | 'height';
const SLIDERS: { key: Slider; unit: string; step: number }[] = [
  { key: 'brightness', unit: '%', step: 1 },
  { key: 'contrast', unit: '%', step: 1 },
  { key: 'hue', unit: '°', step: 1 },
  { key: 'width', unit: 'px', step: 10 },
  { key: 'height', unit: 'px', step: 10 },
];
type Crop = { x: number; y: number; w: number; h: number };
const PREVIEW_WIDTH = 200;
/** The photo shown whole to draw the crop on (fits a 390 px screen inside the dialog). */
const CROP_VIEW_WIDTH = 260;
/** The server's smallest crop (photoEdits.crop). */
const MIN_CROP = 50;

/** The crop rectangle's percentages (react-image-crop) as pixels of the photo, kept inside it and at least MIN_CROP. */
function cropFromPercent(percent: PercentCrop, source: { w: number; h: number }): Crop {
  const w = Math.min(source.w, Math.max(MIN_CROP, Math.round((percent.width * source.w) / 100)));
  const h = Math.min(source.h, Math.max(MIN_CROP, Math.round((percent.height * source.h) / 100)));
  const x = Math.min(source.w - w, Math.max(0, Math.round((percent.x * source.w) / 100)));
  const y = Math.min(source.h - h, Math.max(0, Math.round((percent.y * source.h) / 100)));
  return { x, y, w, h };
}

export interface PhotoEditorProps {
  open: boolean;
  name: string;
  /** The photo as shown (an object URL), or null while it loads. */
  src: string | null;
  onSave: (edits: PhotoEdits) => Promise<unknown>;
  onClose: () => void;
  /** `src` is the candidate's original (ADR 0147): the crop is in its pixels. */
  fromOriginal?: boolean;
}

const initial = () => ({ brightness: L.brightness.default, contrast: L.contrast.default, hue: L.hue.default, width: L.width.default, height: L.height.default });

/**
 * The image editor (spec section 3): brightness, contrast, hue, output width and height, and a crop
 * in pixels of the photo as served, drawn on the photo (react-image-crop: dragged with a pointer or
 * a finger, moved and resized with the arrow keys) or typed in. The preview applies the same
 * settings with CSS; the server applies them to the stored photo (extract, resize cover, modulate,
 * linear).
 */
export function PhotoEditor({ open, name, src, onSave, onClose, fromOriginal = false }: PhotoEditorProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState(initial);
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const [cropOn, setCropOn] = useState(false);
  const [crop, setCrop] = useState<Crop>({ x: 0, y: 0, w: 300, h: 400 });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Message | null>(null);
  const messageText = useMessageText();

  const source = natural ?? { w: 300, h: 400 };
  const area: Crop = cropOn ? crop : { x: 0, y: 0, w: source.w, h: source.h };
  const boxW = PREVIEW_WIDTH;
  const boxH = Math.round((PREVIEW_WIDTH * values.height) / values.width);
  // Resize "cover": the crop fills the box, centred.
  const scale = Math.max(boxW / Math.max(area.w, 1), boxH / Math.max(area.h, 1));
  const imgStyle = {
    position: 'absolute' as const,
    width: source.w * scale,
    height: source.h * scale,
    maxWidth: 'none',
    left: -area.x * scale + (boxW - area.w * scale) / 2,
    top: -area.y * scale + (boxH - area.h * scale) / 2,
    filter: `brightness(${values.brightness}%) contrast(${values.contrast}%) hue-rotate(${values.hue}deg)`,
  };

  function setCropField(key: keyof Crop, raw: string) {
    const value = Math.max(0, Math.round(Number(raw) || 0));
    setCrop((c) => ({ ...c, [key]: value }));
  }
  const cropValid = !cropOn || (crop.w >= 50 && crop.h >= 50 && crop.x + crop.w <= source.w && crop.y + crop.h <= source.h);

  async function save() {
    if (!cropValid) {
      setError(keyMessage('validations.editor.cropInvalid', { w: source.w, h: source.h }));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSave({ ...values, ...(cropOn ? { crop } : {}) });
      onClose();
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  function reset() {
    setValues(initial());
    setCropOn(false);
    setCrop({ x: 0, y: 0, w: source.w, h: source.h });
  }

  return (
    <Dialog open={open} size="large" title={t('validations.editor.title', { name })} onClose={busy ? () => undefined : onClose}>
      <div className="grid-2" data-testid="photo-editor">
        <div>
          <div
            style={{ position: 'relative', overflow: 'hidden', width: boxW, height: boxH, margin: '0 auto', background: '#eee', borderRadius: 4 }}
            data-testid="photo-editor-preview"
          >
            {src ? (
              <img
                src={src}
                alt={t('validations.editor.previewAlt', { name })}
                style={imgStyle}
                onLoad={(e) => {
                  const img = e.currentTarget;
                  if (img.naturalWidth > 0) {
                    setNatural({ w: img.naturalWidth, h: img.naturalHeight });
                    setCrop((c) => (c.w === 300 && c.h === 400 ? { x: 0, y: 0, w: img.naturalWidth, h: img.naturalHeight } : c));
                  }
                }}
              />
            ) : (
              <p className="muted">{t('common.loading')}</p>
            )}
          </div>
          <p className="muted" style={{ textAlign: 'center' }}>
            {t('validations.editor.output', { width: values.width, height: values.height })}
          </p>
        </div>
        <div className="stack">
          {SLIDERS.map(({ key, unit, step }) => {
            const id = `editor-${key}`;
            return (
              <div className="field" key={key}>
                <label className="field__label" htmlFor={id}>
                  {t(`validations.editor.${key}`)} <output htmlFor={id}>{`${values[key]} ${unit}`}</output>
                </label>
                <input
                  id={id}
                  type="range"
                  min={L[key].min}
                  max={L[key].max}
                  step={step}
                  value={values[key]}
                  aria-valuetext={`${values[key]} ${unit}`}
                  onChange={(e) => setValues((v) => ({ ...v, [key]: Number(e.target.value) }))}
                />
              </div>
            );
          })}
          <fieldset className="fieldset">
            <legend>{t('validations.editor.crop')}</legend>
            {fromOriginal && natural ? (
              <p className="muted" data-testid="photo-editor-original">
                {t('validations.editor.fromOriginal', { w: natural.w, h: natural.h })}
              </p>
            ) : null}
            <label className="checkbox">
              <input type="checkbox" checked={cropOn} onChange={(e) => setCropOn(e.target.checked)} />
              {t('validations.editor.cropEnable')}
            </label>
            {cropOn && src ? (
              <div className="stack" data-testid="photo-cropper">
                <p id="editor-crop-help" className="field__hint">
                  {t('validations.editor.cropHelp')}
                </p>
                <ReactCrop
                  crop={{ unit: '%', x: (crop.x / source.w) * 100, y: (crop.y / source.h) * 100, width: (crop.w / source.w) * 100, height: (crop.h / source.h) * 100 }}
                  onChange={(_, percent) => setCrop(cropFromPercent(percent, source))}
                  keepSelection
                  ruleOfThirds
                  minWidth={(MIN_CROP * CROP_VIEW_WIDTH) / source.w}
                  minHeight={(MIN_CROP * CROP_VIEW_WIDTH) / source.w}
                  ariaLabels={{
                    cropArea: t('validations.editor.cropArea'),
                    nwDragHandle: t('validations.editor.handles.nw'),
                    nDragHandle: t('validations.editor.handles.n'),
                    neDragHandle: t('validations.editor.handles.ne'),
                    eDragHandle: t('validations.editor.handles.e'),
                    seDragHandle: t('validations.editor.handles.se'),
                    sDragHandle: t('validations.editor.handles.s'),
                    swDragHandle: t('validations.editor.handles.sw'),
                    wDragHandle: t('validations.editor.handles.w'),
                  }}
                >
                  <img src={src} alt={t('validations.editor.cropSourceAlt', { name })} style={{ display: 'block', width: CROP_VIEW_WIDTH, maxWidth: '100%' }} />
                </ReactCrop>
                <p className="muted" aria-live="polite" data-testid="photo-crop-value">
                  {t('validations.editor.cropValue', crop)}
                </p>
              </div>
            ) : null}
            {cropOn ? (
              <div className="form-grid">
                {(['x', 'y', 'w', 'h'] as const).map((key) => (
                  <div className="field" key={key}>
                    <label className="field__label" htmlFor={`editor-crop-${key}`}>
                      {t(`validations.editor.crop_${key}`)}
                    </label>
                    <input id={`editor-crop-${key}`} type="number" inputMode="numeric" min={0} value={crop[key]} onChange={(e) => setCropField(key, e.target.value)} />
                  </div>
                ))}
              </div>
            ) : null}
            <p className="field__hint">{t('validations.editor.source', { width: source.w, height: source.h })}</p>
          </fieldset>
        </div>
      </div>
      {error ? (
        <div className="alert alert--error" role="alert">
          {messageText(error)}
        </div>
      ) : null}
      <div className="dialog__actions">
        <button type="button" className="button button--ghost" onClick={reset} disabled={busy}>
          {t('validations.editor.reset')}
        </button>
        <button type="button" className="button button--secondary" onClick={onClose} disabled={busy}>
          {t('common.cancel')}
        </button>
        <button type="button" className="button" onClick={() => void save()} disabled={busy || !src} aria-busy={busy}>
          {t('validations.editor.save')}
        </button>
      </div>
    </Dialog>
  );
}
