import { REFERENCE_IMPORT_COLUMNS, REFERENCE_LIMITS, type ProvincePlaces as Places } from '@sceau/contracts';
import { type FormEvent, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/error-alert';
import { isApiError } from '@/lib/http';
import { keyMessage, textMessage, useMessageText, type Message } from '@/lib/message';
import { saveFile } from '@/lib/save-file';
import { usePlaceChanges, useProvincePlaces } from '@/features/reference-data/reference-data-api';

/** Shown at most; a search narrows the rest. */
const SHOWN = 50;

/** Text as compared by the search: no accents, no case, letters and digits only (the API's rule, ADR 0139). */
export function searchKey(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** The province's list as a CSV in the import's own columns (so national staff can edit it and import it back). */
export function placesCsv(places: Places): string {
  const cell = (value: string) => (/[;"\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  const lines = [REFERENCE_IMPORT_COLUMNS.join(';')];
  for (const c of places.centres) lines.push(['centre', c.code, c.name, c.city, places.province.code, '', ''].map(cell).join(';'));
  for (const s of places.schools) lines.push(['ecole', s.code, s.name, s.city, places.province.code, s.centre_code, s.option_codes.join(' ')].map(cell).join(';'));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/**
 * On /check-file: the schools, centres and options a list of the chosen province may name, with
 * their codes (the user's scope decides which), searchable and downloadable; national staff who
 * keep the lists add, rename and import schools and centres here.
 */
export function ProvincePlaces({ provinceId }: { provinceId: number | null }) {
  const { t } = useTranslation();
  const places = useProvincePlaces(provinceId);
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);

  if (provinceId === null) return null;
  if (places.isError) return <ErrorAlert error={places.error} onRetry={() => void places.refetch()} />;
  if (!places.data)
    return (
      <p role="status" className="muted">
        {t('common.loading')}
      </p>
    );
  const data = places.data;
  const key = searchKey(deferred);
  const matching = key ? data.schools.filter((s) => searchKey(`${s.code} ${s.name} ${s.city} ${s.centre_code}`).includes(key)) : data.schools;
  const shown = matching.slice(0, SHOWN);

  return (
    <section className="card stack" aria-labelledby="places-title" data-testid="province-places">
      <h2 id="places-title">{t('referencePlaces.title', { province: data.province.name })}</h2>
      <p>{t('referencePlaces.intro')}</p>
      <div className="actions">
        <button
          type="button"
          className="button button--secondary"
          data-testid="places-download"
          onClick={() => saveFile(new Blob([placesCsv(data)], { type: 'text/csv;charset=utf-8' }), `ecoles-${data.province.code}.csv`)}
        >
          {t('referencePlaces.download')}
        </button>
      </div>
      <div className="field">
        <label className="field__label" htmlFor="places-search">
          {t('referencePlaces.search')}
        </label>
        <input id="places-search" type="search" value={search} onChange={(event) => setSearch(event.target.value)} data-testid="places-search" />
      </div>
      <p className="muted" aria-live="polite" data-testid="places-count">
        {matching.length > SHOWN ? t('referencePlaces.countMore', { shown: SHOWN, count: matching.length }) : t('referencePlaces.count', { count: matching.length })}
      </p>
      <div className="table-wrap" role="region" aria-label={t('referencePlaces.schoolsCaption')} tabIndex={0}>
        <table className="table" data-testid="places-schools">
          <caption>{t('referencePlaces.schoolsCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('referencePlaces.code')}</th>
              <th scope="col">{t('referencePlaces.name')}</th>
              <th scope="col">{t('referencePlaces.centre')}</th>
              <th scope="col">{t('referencePlaces.options')}</th>
              {data.abilities.manage ? <th scope="col">{t('referencePlaces.actions')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {shown.map((school) => (
              <tr key={school.id} data-code={school.code}>
                <td>
                  <code>{school.code}</code>
                </td>
                <td>
                  {school.name}
                  <span className="table__line muted">{school.city}</span>
                </td>
                <td>
                  <code>{school.centre_code}</code>
                </td>
                <td>{school.option_codes.join(', ')}</td>
                {data.abilities.manage ? (
                  <td>
                    <RenamePlace kind="school" id={school.id} name={school.name} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <details data-testid="places-centres">
        <summary>{t('referencePlaces.centresTitle', { count: data.centres.length })}</summary>
        <ul>
          {data.centres.map((centre) => (
            <li key={centre.id}>
              <code>{centre.code}</code> {centre.name} ({centre.city}) {data.abilities.manage ? <RenamePlace kind="centre" id={centre.id} name={centre.name} /> : null}
            </li>
          ))}
        </ul>
      </details>
      <details data-testid="places-options">
        <summary>{t('referencePlaces.optionsTitle', { count: data.options.length })}</summary>
        <ul>
          {data.options.map((option) => (
            <li key={option.id}>
              <code>{option.code}</code> {option.section} · {option.name}
            </li>
          ))}
        </ul>
      </details>
      {data.abilities.manage ? <ManagePlaces places={data} /> : null}
    </section>
  );
}

/** A failure's messages: the server's on the fields, else its message, else the generic one. */
function messagesOf(error: unknown): Message[] {
  if (!isApiError(error)) return [keyMessage('errors.generic')];
  const fields = Object.values(error.fieldErrors).flat();
  return (fields.length ? fields : [error.message]).map((text) => textMessage(text));
}

function RenamePlace({ kind, id, name }: { kind: 'centre' | 'school'; id: number; name: string }) {
  const { t } = useTranslation();
  const { rename } = usePlaceChanges();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(name);
  const [error, setError] = useState<Message[] | null>(null);
  const messageText = useMessageText();
  if (!open)
    return (
      <button type="button" className="button button--link" onClick={() => setOpen(true)} aria-label={t('referencePlaces.renameOf', { name })}>
        {t('referencePlaces.rename')}
      </button>
    );
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await rename.mutateAsync({ kind, id, body: { name: value } });
      setOpen(false);
    } catch (caught) {
      setError(messagesOf(caught));
    }
  }
  const inputId = `rename-${kind}-${id}`;
  return (
    <form className="inline-form" onSubmit={(event) => void onSubmit(event)} noValidate>
      <label htmlFor={inputId} className="visually-hidden">
        {t('referencePlaces.newName')}
      </label>
      <input id={inputId} value={value} maxLength={REFERENCE_LIMITS.nameMax} onChange={(event) => setValue(event.target.value)} aria-invalid={error ? true : undefined} />
      <button type="submit" className="button" disabled={rename.isPending}>
        {t('referencePlaces.save')}
      </button>
      {error ? (
        <span role="alert" className="field__error">
          {messageText(error)}
        </span>
      ) : null}
    </form>
  );
}

/** National staff: a centre or school added, a CSV of them imported (all rows or none). */
function ManagePlaces({ places }: { places: Places }) {
  const { t } = useTranslation();
  const { addCentre, addSchool, importCsv } = usePlaceChanges();
  const [kind, setKind] = useState<'centre' | 'school'>('school');
  const [form, setForm] = useState({ code: '', name: '', city: '', centre: '' });
  // Messages written when shown, so a language chosen afterwards applies to them.
  const [errors, setErrors] = useState<Message[]>([]);
  const [done, setDone] = useState<Message | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [importErrors, setImportErrors] = useState<Message[]>([]);
  const messageText = useMessageText();

  async function onAdd(event: FormEvent) {
    event.preventDefault();
    setErrors([]);
    setDone(null);
    try {
      if (kind === 'centre') await addCentre.mutateAsync({ code: form.code, name: form.name, city: form.city, educ_province_id: places.province.id });
      else await addSchool.mutateAsync({ code: form.code, name: form.name, city: form.city, centre_id: Number(form.centre), option_ids: [] });
      setDone(keyMessage('referencePlaces.added', { code: form.code.toUpperCase() }));
      setForm({ code: '', name: '', city: '', centre: form.centre });
    } catch (caught) {
      setErrors(messagesOf(caught));
    }
  }

  async function onImport(event: FormEvent) {
    event.preventDefault();
    setImportErrors([]);
    setDone(null);
    if (!file) {
      setImportErrors([keyMessage('referencePlaces.fileRequired')]);
      return;
    }
    if (file.size > REFERENCE_LIMITS.importMaxBytes) {
      setImportErrors([keyMessage('referencePlaces.fileTooLarge', { size: REFERENCE_LIMITS.importMaxBytes / 1024 / 1024 })]);
      return;
    }
    try {
      const result = await importCsv.mutateAsync(file);
      setDone(
        keyMessage('referencePlaces.imported', {
          centres: result.centres.created,
          schools: result.schools.created,
          renamed: result.centres.renamed + result.schools.renamed,
        }),
      );
    } catch (caught) {
      setImportErrors(messagesOf(caught));
    }
  }

  return (
    <div className="stack" data-testid="places-manage">
      <h3>{t('referencePlaces.manageTitle')}</h3>
      {done ? (
        <p role="status" className="alert alert--success" data-testid="places-done">
          {messageText(done)}
        </p>
      ) : null}
      <form className="form stack" onSubmit={(event) => void onAdd(event)} noValidate data-testid="places-add">
        <fieldset>
          <legend>{t('referencePlaces.addWhat')}</legend>
          <label>
            <input type="radio" name="place-kind" checked={kind === 'school'} onChange={() => setKind('school')} /> {t('referencePlaces.aSchool')}
          </label>{' '}
          <label>
            <input type="radio" name="place-kind" checked={kind === 'centre'} onChange={() => setKind('centre')} /> {t('referencePlaces.aCentre')}
          </label>
        </fieldset>
        <div className="grid-2">
          {(['code', 'name', 'city'] as const).map((field) => (
            <div className="field" key={field}>
              <label className="field__label" htmlFor={`place-${field}`}>
                {t(`referencePlaces.${field}`)}
              </label>
              <input id={`place-${field}`} value={form[field]} onChange={(event) => setForm({ ...form, [field]: event.target.value })} />
            </div>
          ))}
          {kind === 'school' ? (
            <div className="field">
              <label className="field__label" htmlFor="place-centre">
                {t('referencePlaces.centre')}
              </label>
              <select id="place-centre" value={form.centre} onChange={(event) => setForm({ ...form, centre: event.target.value })}>
                <option value="">{t('referencePlaces.chooseCentre')}</option>
                {places.centres.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.code} · {c.name}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
        </div>
        {errors.length ? (
          <ul className="alert alert--error" role="alert" data-testid="places-add-errors">
            {errors.map((message) => {
              const text = messageText(message);
              return <li key={text}>{text}</li>;
            })}
          </ul>
        ) : null}
        <button type="submit" className="button" disabled={addCentre.isPending || addSchool.isPending}>
          {t('referencePlaces.add')}
        </button>
      </form>
      <form className="form stack" onSubmit={(event) => void onImport(event)} noValidate data-testid="places-import">
        <div className="field">
          <label className="field__label" htmlFor="places-file">
            {t('referencePlaces.importFile')}
          </label>
          <p className="field__hint" id="places-file-hint">
            {t('referencePlaces.importHint', {
              columns: REFERENCE_IMPORT_COLUMNS.join(';'),
              rows: REFERENCE_LIMITS.importMaxRows,
              size: REFERENCE_LIMITS.importMaxBytes / 1024 / 1024,
            })}
          </p>
          <input id="places-file" type="file" accept=".csv,text/csv" aria-describedby="places-file-hint" onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
        </div>
        {importErrors.length ? (
          <ul className="alert alert--error" role="alert" data-testid="places-import-errors">
            {importErrors.map((message) => {
              const text = messageText(message);
              return <li key={text}>{text}</li>;
            })}
          </ul>
        ) : null}
        <button type="submit" className="button button--secondary" disabled={importCsv.isPending}>
          {t('referencePlaces.import')}
        </button>
      </form>
    </div>
  );
}
