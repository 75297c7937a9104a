import type { ValidationBatchView } from '@sceau/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/dialog';
import { useFlashStore } from '@/lib/flash-context';
import { isApiError } from '@/lib/http';
import { keyMessage, textMessage, useMessageText, type Message } from '@/lib/message';
import { ReadyNotice } from '@/features/validations/validation-parts';
import { usePendingCount, useValidateAll, VALIDATION_PAGE_SIZES, type ValidationItemsFilter } from '@/features/validations/validations-api';

/** How many candidates a page shows: 20, 50 or 100. */
export function PageSizeSelect({ value, onChange }: { value: number; onChange: (size: number) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field field--inline">
      <label className="field__label" htmlFor={id}>
        {t('validations.pageSize')}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(Number(e.target.value))} data-testid="page-size">
        {VALIDATION_PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * "Validate all pending": every pending candidate matching the current filter and search, on one
 * side, in one call. The confirmation asks the server how many that is now, then names the result.
 */
export function ValidateAllPending({
  aspect,
  batch,
  filter,
  filtered,
}: {
  aspect: 'photos' | 'data';
  batch: ValidationBatchView;
  filter: ValidationItemsFilter;
  filtered: boolean;
}) {
  const { t } = useTranslation();
  const flash = useFlashStore();
  const [open, setOpen] = useState(false);
  const [ready, setReady] = useState<number | null>(null);
  const [error, setError] = useState<Message | null>(null);
  const messageText = useMessageText();
  const count = usePendingCount(aspect, batch.id, filter, open);
  const validateAll = useValidateAll();
  const may = aspect === 'photos' ? batch.abilities.validate_photos : batch.abilities.validate_data;
  if (!may || batch.counts[aspect].pending === 0) return <ReadyNotice generationId={ready} />;
  const n = count.data?.count;

  async function confirm() {
    setError(null);
    try {
      const result = await validateAll.mutateAsync({ aspect, id: batch.id, filter });
      flash.pushText(result.message, 'success');
      if (result.without_photo > 0) flash.pushMessage(keyMessage('validations.all.withoutPhoto', { count: result.without_photo }), 'error');
      setReady(result.generation.status === 'ready_for_generation' ? result.generation.id : null);
      setOpen(false);
    } catch (failure) {
      setError(isApiError(failure) ? textMessage(Object.values(failure.fieldErrors)[0]?.[0] ?? failure.message) : keyMessage('errors.generic'));
    }
  }

  return (
    <>
      <ReadyNotice generationId={ready} />
      <div className="validation-all">
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            setError(null);
            setOpen(true);
          }}
          data-testid="validate-all"
        >
          {filtered ? t('validations.all.buttonFiltered') : t('validations.all.button')}
        </button>
      </div>
      <Dialog open={open} title={t(`validations.all.title.${aspect}`)} onClose={validateAll.isPending ? () => undefined : () => setOpen(false)}>
        <div className="stack" data-testid="validate-all-dialog">
          {count.isError ? (
            <p className="alert alert--error" role="alert">
              {isApiError(count.error) ? count.error.message : t('errors.generic')}
            </p>
          ) : n === undefined ? (
            <p role="status">{t('common.loading')}</p>
          ) : (
            <p role="status" data-testid="validate-all-count">
              {n === 0 ? t('validations.all.none') : t(`validations.all.count.${aspect}`, { count: n })}
              {filtered ? ` ${t('validations.all.filtered')}` : ''}
            </p>
          )}
          {count.data && count.data.without_photo > 0 ? <p className="muted">{t('validations.all.withoutPhoto', { count: count.data.without_photo })}</p> : null}
          {error ? (
            <p className="alert alert--error" role="alert">
              {messageText(error)}
            </p>
          ) : null}
          <div className="dialog__actions">
            <button type="button" className="button button--secondary" onClick={() => setOpen(false)} disabled={validateAll.isPending}>
              {t('common.cancel')}
            </button>
            <button type="button" className="button" disabled={!n || validateAll.isPending} aria-busy={validateAll.isPending} onClick={() => void confirm()}>
              {n ? t('validations.all.confirm', { count: n }) : t('validations.all.confirmNone')}
            </button>
          </div>
        </div>
      </Dialog>
    </>
  );
}

/** Whether a key press belongs to a field, a dialog or a shortcut of the browser, not to the list. */
function notForList(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return true;
  const target = event.target instanceof HTMLElement ? event.target : null;
  const typing = target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
  if (target && (typing || target.isContentEditable || target.closest('textarea, select, [role="dialog"], [aria-modal="true"]'))) return true;
  return document.querySelector('[aria-modal="true"]') !== null;
}

export interface ListShortcuts {
  /** The candidate the shortcuts act on (its index in the page), or null before any move. */
  current: number | null;
  /** Props of the row or card at `index`: focusable, marked when current. */
  itemProps: (index: number) => { tabIndex: -1; 'data-shortcut-index': number; 'aria-current'?: true; className?: string; onFocus: () => void };
  helpOpen: boolean;
  setHelpOpen: (open: boolean) => void;
}

/**
 * The list's keyboard: j / ↓ next candidate, k / ↑ previous, ? the help; v, r and e press the current
 * candidate's button marked `data-shortcut="v|r|e"` (validate, reject, edit), so a shortcut does what
 * the visible button does and nothing when the button is absent or disabled. Keys typed in a field or
 * a dialog, or with Ctrl, Alt or ⌘, are left alone.
 */
export function useListShortcuts(count: number): ListShortcuts {
  const [current, setCurrent] = useState<number | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const state = useRef({ count, current });
  state.current = { count, current };

  useEffect(() => {
    function move(to: number) {
      setCurrent(to);
      document.querySelector<HTMLElement>(`[data-shortcut-index="${to}"]`)?.focus();
    }
    function onKeyDown(event: KeyboardEvent) {
      if (notForList(event)) return;
      const { count: n, current: at } = state.current;
      const key = event.key;
      if (key === '?') {
        setHelpOpen((open) => !open);
      } else if (n === 0) {
        return;
      } else if (key === 'j' || key === 'ArrowDown') {
        move(at === null ? 0 : Math.min(n - 1, at + 1));
      } else if (key === 'k' || key === 'ArrowUp') {
        move(at === null ? 0 : Math.max(0, at - 1));
      } else if ((key === 'v' || key === 'r' || key === 'e') && at !== null && at < n) {
        const button = document.querySelector<HTMLButtonElement>(`[data-shortcut-index="${at}"] [data-shortcut="${key}"]`);
        if (!button || button.disabled) return;
        button.click();
      } else {
        return;
      }
      event.preventDefault();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  const at = current !== null && current < count ? current : null;
  return {
    current: at,
    itemProps: (index) => ({
      tabIndex: -1,
      'data-shortcut-index': index,
      onFocus: () => setCurrent(index),
      ...(index === at ? { 'aria-current': true as const, className: 'is-current' } : {}),
    }),
    helpOpen,
    setHelpOpen,
  };
}

/** The shortcuts, listed where they are used (opened with ? too). */
export function ShortcutHelp({ shortcuts, editKey }: { shortcuts: Pick<ListShortcuts, 'helpOpen' | 'setHelpOpen'>; editKey: 'photo' | 'data' }) {
  const { t } = useTranslation();
  const keys: [string[], string][] = [
    [['j', '↓'], t('validations.shortcuts.next')],
    [['k', '↑'], t('validations.shortcuts.previous')],
    [['v'], t('validations.shortcuts.validate')],
    [['r'], t('validations.shortcuts.reject')],
    [['e'], t(`validations.shortcuts.edit.${editKey}`)],
    [['?'], t('validations.shortcuts.help')],
  ];
  return (
    <details className="card shortcut-help" open={shortcuts.helpOpen} onToggle={(e) => shortcuts.setHelpOpen(e.currentTarget.open)} data-testid="shortcut-help">
      <summary aria-keyshortcuts="?">{t('validations.shortcuts.title')}</summary>
      <dl className="shortcut-help__list">
        {keys.map(([combo, label]) => (
          <div key={label}>
            <dt>
              {combo.map((k, i) => (
                <span key={k}>
                  {i > 0 ? ` ${t('validations.shortcuts.or')} ` : null}
                  <kbd>{k}</kbd>
                </span>
              ))}
            </dt>
            <dd>{label}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">{t('validations.shortcuts.note')}</p>
    </details>
  );
}
