import type { ValidationItemView } from '@sceau/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/dialog';
import { FormField, describedBy } from '@/components/form-field';
import { isApiError } from '@/lib/http';
import { failureMessage, keyMessage, textMessage, useMessageText, type Message } from '@/lib/message';
import { ReadyNotice, RejectDialog, ValidationStateBadge, candidateName, useChangeOutcome, useSelection } from '@/features/validations/validation-parts';
import { ValidationPage, type ValidationListProps } from '@/features/validations/validation-page';
import { ShortcutHelp, useListShortcuts } from '@/features/validations/validation-tools';
import { useValidationChange, type ValidationChange } from '@/features/validations/validations-api';

/** /validate-data/{id}: the batch's candidates with their data, to validate, correct or reject. */
export function ValidateDataPage() {
  return (
    <ValidationPage aspect="data" titleKey="pages.validateData.title">
      {(props) => <DataTable {...props} />}
    </ValidationPage>
  );
}

function DataTable({ batch, items, busy, filtered }: ValidationListProps) {
  const { t } = useTranslation();
  const change = useValidationChange();
  const outcome = useChangeOutcome();
  const [rejecting, setRejecting] = useState<ValidationItemView | null>(null);
  const [editing, setEditing] = useState<ValidationItemView | null>(null);
  const selectable = items.filter((i) => !i.rejected);
  const selection = useSelection(selectable);
  const { chosen } = selection;
  const shortcuts = useListShortcuts(items.length);

  function run(c: ValidationChange) {
    return change.mutateAsync(c).then((result) => {
      outcome.handle(result);
      return result;
    });
  }

  return (
    <section className="stack" aria-labelledby="data-title">
      <h2 id="data-title" className="section__title section__title--left">
        {t('validations.data.title')}
      </h2>
      <ReadyNotice generationId={outcome.ready} />
      {items.length > 0 ? <ShortcutHelp shortcuts={shortcuts} editKey="data" /> : null}
      {batch.abilities.validate_data && selectable.length > 0 ? (
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
            onClick={() => {
              run({ kind: 'data', items: chosen }).then(selection.clear).catch(outcome.fail);
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
        <div className="table-wrap table-wrap--cards" role="region" aria-label={t('validations.data.caption')} tabIndex={0}>
          <table className="table table--cards" aria-busy={busy} data-testid="data-table">
            <caption className="visually-hidden">{t('validations.data.caption')}</caption>
            <thead>
              <tr>
                {batch.abilities.validate_data ? (
                  <th scope="col" className="table__check">
                    <span className="visually-hidden">{t('validations.selection.select')}</span>
                  </th>
                ) : null}
                <th scope="col">{t('validations.columns.candidate')}</th>
                <th scope="col">{t('validations.columns.birth')}</th>
                <th scope="col">{t('validations.columns.gender')}</th>
                <th scope="col">{t('validations.columns.school')}</th>
                <th scope="col">{t('validations.columns.state')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('validations.columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item, index) => {
                const name = candidateName(item);
                const canAct = batch.abilities.validate_data && !item.rejected;
                return (
                  <tr key={item.id} {...shortcuts.itemProps(index)} data-testid={`data-row-${item.id}`}>
                    {batch.abilities.validate_data ? (
                      <td className="table__check">
                        {canAct ? (
                          <input
                            type="checkbox"
                            checked={selection.isSelected(item.id)}
                            onChange={(e) => selection.toggle(item.id, e.target.checked)}
                            aria-label={t('validations.selection.one', { name })}
                          />
                        ) : null}
                      </td>
                    ) : null}
                    <th scope="row" data-label={t('validations.columns.candidate')}>
                      <strong className="cell-line">{name}</strong>
                      <span className="table__line muted">
                        {t('validations.code')} <code>{item.candidate_code}</code>
                      </span>
                    </th>
                    <td data-label={t('validations.columns.birth')}>
                      <span className="cell-line">{item.birth_date}</span>
                      <span className="cell-line muted">{item.birth_place}</span>
                    </td>
                    <td data-label={t('validations.columns.gender')}>{t(`validations.gender.${item.gender}`)}</td>
                    <td className="cell-wide" data-label={t('validations.columns.school')}>
                      <span className="cell-line">{item.option.name}</span>
                      <span className="cell-line">{item.institution.name}</span>
                      <span className="cell-line muted">{item.centre.name}</span>
                    </td>
                    <td data-label={t('validations.columns.state')}>
                      <span className="badge-stack">
                        <ValidationStateBadge kind="data" state={item.data_status} />
                        {item.rejected ? <span className="badge badge--danger">{t('validations.rejectedBadge')}</span> : null}
                      </span>
                      {item.rejected && item.rejection_reason ? <span className="cell-line muted">{item.rejection_reason}</span> : null}
                    </td>
                    <td className="table__actions">
                      {canAct ? (
                        <div className="row-actions">
                          {item.data_status !== 'validated' ? (
                            <button
                              type="button"
                              className="button button--small"
                              disabled={change.isPending}
                              onClick={() => void run({ kind: 'data', items: [item.id] }).catch(outcome.fail)}
                              aria-label={t('validations.actions.validateOf', { name })}
                              data-shortcut="v"
                              aria-keyshortcuts="v"
                            >
                              {t('validations.actions.validate')}
                            </button>
                          ) : null}
                          <button
                            type="button"
                            className="button button--secondary button--small"
                            onClick={() => setEditing(item)}
                            aria-label={t('validations.actions.editDataOf', { name })}
                            data-shortcut="e"
                            aria-keyshortcuts="e"
                          >
                            {t('validations.actions.edit')}
                          </button>
                          <button
                            type="button"
                            className="button button--danger button--small"
                            onClick={() => setRejecting(item)}
                            aria-label={t('validations.actions.rejectOf', { name })}
                            data-shortcut="r"
                            aria-keyshortcuts="r"
                          >
                            {t('validations.actions.reject')}
                          </button>
                        </div>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <RejectDialog
        name={rejecting ? candidateName(rejecting) : null}
        onReject={(reason) => run({ kind: 'rejectData', item: rejecting!.id, reason })}
        onClose={() => setRejecting(null)}
      />
      {editing ? (
        <DataEditDialog key={editing.id} item={editing} onSave={(fields) => run({ kind: 'dataEdit', item: editing.id, fields })} onClose={() => setEditing(null)} />
      ) : null}
    </section>
  );
}

const FIELDS = ['last_name', 'middle_name', 'first_name', 'birth_place', 'birth_date'] as const;
type Field = (typeof FIELDS)[number] | 'gender';

/** The data form: only the fields changed are sent, with the validation. */
function DataEditDialog({ item, onSave, onClose }: { item: ValidationItemView; onSave: (fields: Record<string, string | null>) => Promise<unknown>; onClose: () => void }) {
  const { t } = useTranslation();
  const start: Record<Field, string> = {
    last_name: item.last_name,
    middle_name: item.middle_name ?? '',
    first_name: item.first_name ?? '',
    birth_place: item.birth_place,
    birth_date: item.birth_date.slice(0, 10),
    gender: item.gender,
  };
  const [values, setValues] = useState(start);
  // Written when shown, so a language chosen afterwards applies to them.
  const [errors, setErrors] = useState<Partial<Record<Field, Message>>>({});
  const [message, setMessage] = useState<Message[] | null>(null);
  const messageText = useMessageText();
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const local: Partial<Record<Field, Message>> = {};
    for (const key of ['last_name', 'first_name', 'birth_place', 'birth_date'] as const) if (values[key].trim() === '') local[key] = keyMessage('validation.required');
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    const changed: Record<string, string | null> = {};
    for (const key of [...FIELDS, 'gender'] as const) {
      const value = values[key].trim();
      if (value !== start[key].trim()) changed[key] = key === 'middle_name' && value === '' ? null : value;
    }
    setBusy(true);
    setMessage(null);
    try {
      await onSave(changed);
      onClose();
    } catch (failure) {
      if (isApiError(failure)) {
        const placed: Partial<Record<Field, Message>> = {};
        const rest: Message[] = [];
        for (const [field, messages] of Object.entries(failure.fieldErrors)) {
          if ((FIELDS as readonly string[]).includes(field) || field === 'gender') placed[field as Field] = textMessage(messages[0]);
          else if (messages[0]) rest.push(textMessage(messages[0]));
        }
        setErrors(placed);
        setMessage([failureMessage(failure), ...rest]);
      } else setMessage([keyMessage('errors.generic')]);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open size="large" title={t('validations.dataForm.title', { name: candidateName(item) })} onClose={busy ? () => undefined : onClose}>
      <form className="form" onSubmit={(e) => void submit(e)} noValidate data-testid="data-form">
        {message ? (
          <div className="alert alert--error" role="alert">
            {messageText(message)}
          </div>
        ) : null}
        <div className="form-grid">
          {FIELDS.map((key) => {
            const id = `data-${key}`;
            const error = messageText(errors[key]);
            return (
              <FormField key={key} id={id} label={t(`validations.dataForm.${key}`)} error={error}>
                <input
                  id={id}
                  type={key === 'birth_date' ? 'date' : 'text'}
                  value={values[key]}
                  required={key !== 'middle_name'}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={describedBy(id, { error: !!error })}
                  onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
                />
              </FormField>
            );
          })}
        </div>
        <fieldset className="fieldset" aria-describedby={errors.gender ? 'data-gender-error' : undefined}>
          <legend>{t('validations.dataForm.gender')}</legend>
          {(['M', 'F'] as const).map((g) => (
            <label key={g} className="checkbox">
              <input type="radio" name="gender" value={g} checked={values.gender === g} onChange={() => setValues((v) => ({ ...v, gender: g }))} />
              {t(`validations.gender.${g}`)}
            </label>
          ))}
          {errors.gender ? (
            <p id="data-gender-error" className="field__error">
              {messageText(errors.gender)}
            </p>
          ) : null}
        </fieldset>
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button" disabled={busy} aria-busy={busy}>
            {t('validations.dataForm.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
