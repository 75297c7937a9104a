import { CANDIDATE_CODE_LENGTH, hasPermission, type TemplateView } from '@sceau/contracts';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorAlert } from '@/components/error-alert';
import { describedBy, FormField } from '@/components/form-field';
import { generationTypeLabel } from '@/components/generation-status';
import { ImportProgress } from '@/features/generations/import-progress';
import {
  createBatchFromRegistry,
  findNationalResult,
  useCountryTemplate,
  useGenerationTypes,
  useTemplate,
  useTemplates,
  type FromRegistryAnswer,
  type GenerationTypeOption,
  type NationalResult,
} from '@/features/generations/issuing-api';
import { TemplatePreview } from '@/features/generations/template-preview';
import { ProvinceSelect, SessionSelect, useDefaultSession } from '@/features/generations/issuing-fields';
import { isApiError } from '@/lib/http';
import { failureMessage, keyMessage, textMessage, useMessageText, type Message } from '@/lib/message';
import { currentLocale } from '@/lib/i18n';
import { useGrants, useSession } from '@/lib/session-context';
import { useDocumentTitle } from '@/lib/use-document-title';

/** The templates the user may use: the country's first, then the schools' (each once). */
function useUsableTemplates() {
  const { profile } = useSession();
  const school = profile?.scope.institution_id ?? null;
  const drc = useCountryTemplate();
  const countryId = drc.data?.owner.type === 'country' ? drc.data.owner.id : null;
  const country = useTemplates(countryId !== null ? `${countryId}_country` : null, countryId !== null);
  // A school's staff see their school's; others every template their scope allows.
  const schools = useTemplates(school !== null ? `${school}_institution` : null);

  const seen = new Set<number>();
  const all: TemplateView[] = [];
  for (const template of [...(drc.data ? [drc.data] : []), ...(country.data ?? []), ...(schools.data ?? [])]) {
    if (seen.has(template.id)) continue;
    seen.add(template.id);
    all.push(template);
  }
  const national = all.filter((x) => x.owner.type === 'country');
  const custom = all.filter((x) => x.owner.type === 'institution');
  const loading = drc.isPending || schools.isPending || (countryId !== null && country.isPending);
  // The country's template may be missing (404); a failure of every list is an error.
  const error = all.length === 0 ? (schools.error ?? (drc.error && !(isApiError(drc.error) && drc.error.status === 404) ? drc.error : null)) : null;
  return { national, custom, all, loading, error, retry: () => void Promise.all([drc.refetch(), schools.refetch(), country.refetch()]) };
}

/** Step 1 of issuing: choose a template (or start from the national results), and look a result up. */
export function CertificatesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('pages.certificates.title'));
  const grants = useGrants();
  const mayCreate = hasPermission(grants, 'generation.create');
  const mayView = hasPermission(grants, 'generation.view');
  const templates = useUsableTemplates();
  const types = useGenerationTypes();
  const [type, setType] = useState('');
  const shown = (list: TemplateView[]) => (type ? list.filter((x) => x.generation_type === type) : list);

  return (
    <div className="container page stack">
      <p>
        <Link to="/dashboard">{t('common.backDashboard')}</Link>
      </p>
      <header className="page-header">
        <div>
          <h1>{t('pages.certificates.title')}</h1>
          <p className="lead">{t('certificates.intro')}</p>
          <p className="muted">{t('certificates.steps')}</p>
        </div>
      </header>

      <section className="stack" aria-labelledby="templates-title">
        <h2 id="templates-title" className="section__title section__title--left">
          {t('certificates.templatesTitle')}
        </h2>
        <TypeFilter types={types.data} value={type} onChange={setType} />
        {!mayCreate ? <p className="alert alert--info">{t('certificates.viewOnly')}</p> : null}
        {templates.loading && templates.all.length === 0 ? (
          <p role="status">{t('common.loading')}</p>
        ) : templates.error ? (
          <ErrorAlert error={templates.error} onRetry={templates.retry} />
        ) : templates.all.length === 0 ? (
          <p className="card empty-state">{t('certificates.noTemplates')}</p>
        ) : (
          <>
            <TemplateGroup title={t('certificates.national')} templates={shown(templates.national)} types={types.data} mayCreate={mayCreate} />
            <TemplateGroup title={t('certificates.custom')} templates={shown(templates.custom)} types={types.data} mayCreate={mayCreate} />
            {shown(templates.all).length === 0 ? <p className="card empty-state">{t('certificates.noTemplateOfType')}</p> : null}
          </>
        )}
      </section>

      {mayCreate ? <FromRegistry templates={templates.all} /> : null}
      {mayView ? <FindResult /> : null}
    </div>
  );
}

function TypeFilter({ types, value, onChange }: { types: GenerationTypeOption[] | undefined; value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  if (!types || types.length === 0) return null;
  return (
    <div className="card toolbar">
      <div className="field">
        <label className="field__label" htmlFor="template-type">
          {t('certificates.type')}
        </label>
        <select id="template-type" value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{t('certificates.anyType')}</option>
          {types.map((x) => (
            <option key={x.code} value={x.code}>
              {x.label}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

function TemplateGroup({ title, templates, types, mayCreate }: { title: string; templates: TemplateView[]; types: GenerationTypeOption[] | undefined; mayCreate: boolean }) {
  const id = useId();
  if (templates.length === 0) return null;
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      <ul className="card-grid template-grid">
        {templates.map((template) => (
          <li key={template.id}>
            <TemplateCard template={template} types={types} mayCreate={mayCreate} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function TemplateCard({ template, types, mayCreate }: { template: TemplateView; types: GenerationTypeOption[] | undefined; mayCreate: boolean }) {
  const { t } = useTranslation();
  const detail = useTemplate(template.id);
  const typeLabel = types?.find((x) => x.code === template.generation_type)?.label ?? generationTypeLabel(t, template.generation_type);
  const titleId = `template-${template.id}-title`;
  return (
    <article className="card template-card" aria-labelledby={titleId} data-testid={`template-card-${template.id}`}>
      <div className="template-card__preview">
        {detail.data ? (
          <TemplatePreview design={detail.data.design} label={t('certificates.previewOf', { name: template.name })} testId={`template-preview-${template.id}`} />
        ) : (
          <div className="template-preview template-preview--empty" aria-hidden="true" />
        )}
      </div>
      <h4 id={titleId}>{template.name}</h4>
      <p className="muted">
        {template.owner.type === 'country' ? t('certificates.ownerCountry', { name: template.owner.name }) : t('certificates.ownerSchool', { name: template.owner.name })}
      </p>
      <p>
        <span className="badge">{typeLabel}</span>
        {template.based_on_id !== null ? <span className="badge badge--muted">{t('certificates.basedOnNational')}</span> : null}
      </p>
      {mayCreate ? (
        <Link className="button button--block" to={`/check-file/${template.id}`} aria-label={t('certificates.chooseOf', { name: template.name })}>
          {t('certificates.choose')}
        </Link>
      ) : null}
    </article>
  );
}

/** The fields' errors, written when shown (a language chosen afterwards applies to them). */
type FieldErrors = Partial<Record<'session' | 'province' | 'template' | 'title' | 'matricule', Message>>;

function FromRegistry({ templates }: { templates: TemplateView[] }) {
  const { t } = useTranslation();
  const { profile } = useSession();
  const defaultSession = useDefaultSession();
  const [session, setSession] = useState<string | null>(null);
  const [province, setProvince] = useState(profile?.scope.province_id ? String(profile.scope.province_id) : '');
  const [template, setTemplate] = useState('');
  const [title, setTitle] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<Message | null>(null);
  const messageText = useMessageText();
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<FromRegistryAnswer | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const sessionValue = session ?? defaultSession;
  const templateValue = template || (templates.length === 1 ? String(templates[0]!.id) : '');

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const next: FieldErrors = {};
    if (!sessionValue) next.session = keyMessage('issuing.sessionRequired');
    if (!province) next.province = keyMessage('issuing.provinceRequired');
    if (!templateValue) next.template = keyMessage('registry.templateRequired');
    const trimmed = title.trim();
    if (trimmed && (trimmed.length < 3 || trimmed.length > 200)) next.title = keyMessage('issuing.titleLength');
    setErrors(next);
    if (Object.keys(next).length > 0) {
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    setBusy(true);
    try {
      setAnswer(
        await createBatchFromRegistry({
          template_id: Number(templateValue),
          session_id: Number(sessionValue),
          province_id: Number(province),
          ...(trimmed ? { title: trimmed } : {}),
        }),
      );
    } catch (error) {
      if (isApiError(error)) {
        const f = error.fieldErrors;
        setErrors({
          session: textMessage(f.session_id?.[0]),
          province: textMessage(f.province_id?.[0]),
          template: textMessage(f.template_id?.[0]),
          title: textMessage(f.title?.[0]),
        });
        setFormError(failureMessage(error));
      } else setFormError(keyMessage('errors.generic'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card stack" aria-labelledby="registry-title" data-testid="from-registry">
      <h2 id="registry-title">{t('registry.title')}</h2>
      <p className="muted">{t('registry.intro')}</p>
      {answer ? (
        <>
          <p role="status" data-testid="registry-summary">
            {t('registry.created', { count: answer.rows })} {answer.skipped > 0 ? t('registry.skipped', { count: answer.skipped }) : null}
          </p>
          <ImportProgress importationId={answer.importation_id} generationId={answer.generation_id} onRetry={() => setAnswer(null)} />
        </>
      ) : (
        <form ref={form} className="form" noValidate onSubmit={(event) => void onSubmit(event)} aria-labelledby="registry-title">
          {formError ? (
            <div className="alert alert--error" role="alert">
              {messageText(formError)}
            </div>
          ) : null}
          <div className="grid-2">
            <SessionSelect id="registry-session" value={sessionValue} onChange={setSession} error={messageText(errors.session)} />
            <ProvinceSelect id="registry-province" value={province} onChange={setProvince} error={messageText(errors.province)} />
          </div>
          <FormField id="registry-template" label={t('registry.template')} error={messageText(errors.template)}>
            <select
              id="registry-template"
              value={templateValue}
              aria-invalid={errors.template ? true : undefined}
              aria-describedby={describedBy('registry-template', { error: !!errors.template })}
              onChange={(event) => setTemplate(event.target.value)}
            >
              <option value="">{t('registry.chooseTemplate')}</option>
              {templates.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name}
                </option>
              ))}
            </select>
          </FormField>
          <FormField id="registry-title-field" label={`${t('issuing.batchTitle')} (${t('common.optional')})`} hint={t('issuing.titleHint')} error={messageText(errors.title)}>
            <input
              id="registry-title-field"
              type="text"
              maxLength={200}
              value={title}
              aria-invalid={errors.title ? true : undefined}
              aria-describedby={describedBy('registry-title-field', { hint: true, error: !!errors.title })}
              onChange={(event) => setTitle(event.target.value)}
            />
          </FormField>
          <button type="submit" className="button" disabled={busy} aria-busy={busy}>
            {busy ? t('registry.submitting') : t('registry.submit')}
          </button>
        </form>
      )}
    </section>
  );
}

function FindResult() {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(i18n);
  const defaultSession = useDefaultSession();
  const [session, setSession] = useState<string | null>(null);
  const [matricule, setMatricule] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<Message | null>(null);
  const messageText = useMessageText();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<NationalResult | null>(null);
  const sessionValue = session ?? defaultSession;
  const input = useRef<HTMLInputElement>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    setResult(null);
    const next: FieldErrors = {};
    if (!new RegExp(`^\\d{${CANDIDATE_CODE_LENGTH}}$`).test(matricule)) next.matricule = keyMessage('findResult.codeFormat', { count: CANDIDATE_CODE_LENGTH });
    if (!sessionValue) next.session = keyMessage('issuing.sessionRequired');
    setErrors(next);
    if (next.matricule) {
      input.current?.focus();
      return;
    }
    if (next.session) return;
    setBusy(true);
    try {
      setResult(await findNationalResult(matricule, Number(sessionValue)));
    } catch (error) {
      if (isApiError(error)) {
        setErrors({ matricule: textMessage(error.fieldErrors.matricule?.[0]), session: textMessage(error.fieldErrors.session?.[0]) });
        setFormError(failureMessage(error));
      } else setFormError(keyMessage('errors.generic'));
    } finally {
      setBusy(false);
    }
  }

  const percent = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const name = result ? [result.last_name, result.middle_name, result.first_name].filter(Boolean).join(' ') : '';

  return (
    <section className="card stack" aria-labelledby="find-result-title" data-testid="find-result">
      <h2 id="find-result-title">{t('findResult.title')}</h2>
      <form className="form" noValidate onSubmit={(event) => void onSubmit(event)} aria-labelledby="find-result-title">
        <div className="grid-2">
          <FormField id="find-matricule" label={t('findResult.code')} hint={t('findResult.codeHint', { count: CANDIDATE_CODE_LENGTH })} error={messageText(errors.matricule)}>
            <input
              id="find-matricule"
              ref={input}
              type="text"
              inputMode="numeric"
              maxLength={CANDIDATE_CODE_LENGTH}
              value={matricule}
              aria-invalid={errors.matricule ? true : undefined}
              aria-describedby={describedBy('find-matricule', { hint: true, error: !!errors.matricule })}
              onChange={(event) => setMatricule(event.target.value.replace(/\D/g, '').slice(0, CANDIDATE_CODE_LENGTH))}
            />
          </FormField>
          <SessionSelect id="find-session" value={sessionValue} onChange={setSession} error={messageText(errors.session)} />
        </div>
        <button type="submit" className="button button--secondary" disabled={busy} aria-busy={busy}>
          {busy ? t('findResult.searching') : t('findResult.submit')}
        </button>
      </form>
      <div aria-live="polite">
        {formError ? (
          <div className="alert alert--error" role="alert" data-testid="find-result-error">
            {messageText(formError)}
          </div>
        ) : null}
        {result ? (
          <dl className="facts" data-testid="find-result-answer">
            <div>
              <dt>{t('findResult.name')}</dt>
              <dd>{name}</dd>
            </div>
            <div>
              <dt>{t('findResult.code')}</dt>
              <dd>
                <code>{result.candidate_code}</code>
              </dd>
            </div>
            <div>
              <dt>{t('findResult.birth')}</dt>
              <dd>{t('findResult.birthValue', { place: result.birth_place, date: result.birth_date })}</dd>
            </div>
            <div>
              <dt>{t('findResult.school')}</dt>
              <dd>{result.school.name ?? result.school.code}</dd>
            </div>
            <div>
              <dt>{t('findResult.centre')}</dt>
              <dd>{result.centre.name ?? result.centre.code}</dd>
            </div>
            <div>
              <dt>{t('findResult.option')}</dt>
              <dd>{result.option.name ?? result.option.code}</dd>
            </div>
            <div>
              <dt>{t('findResult.percentage')}</dt>
              <dd>{percent.format(result.percentage)} %</dd>
            </div>
            <div>
              <dt>{t('findResult.outcome')}</dt>
              <dd>
                <span className={result.passed ? 'badge badge--info' : 'badge badge--danger'} data-testid="find-result-outcome">
                  {result.passed ? t('findResult.passed') : t('findResult.failed')}
                </span>
              </dd>
            </div>
            <div>
              <dt>{t('findResult.session')}</dt>
              <dd>{result.session.name}</dd>
            </div>
          </dl>
        ) : null}
      </div>
    </section>
  );
}
