import type { Institution } from '@sceau/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '@/components/form-field';
import { useCentresOfProvince, useCountries, useEducProvinces, useInstitutionsOfCountry } from '@/features/reference-data/reference-data-api';

export interface Scope {
  province_id: number | null;
  centre_id: number | null;
  institution_id: number | null;
}

function toId(value: string): number | null {
  return value === '' ? null : Number(value);
}

/**
 * Where a staff member works (a province, one of its centres, one of its schools), each choice
 * narrowing the next. Centres come from the province; schools from the default country's list.
 */
export function ScopeFields({
  idPrefix,
  value,
  onChange,
  errors,
  disabled = false,
}: {
  idPrefix: string;
  value: Scope;
  onChange: (next: Scope) => void;
  errors: Partial<Record<keyof Scope, string | null>>;
  /** Shown but not changeable (the account's abilities do not allow changing its access). */
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const provinces = useEducProvinces();
  const countries = useCountries();
  const country = countries.data?.find((c) => c.is_default) ?? countries.data?.[0] ?? null;
  const institutions = useInstitutionsOfCountry(country?.id ?? null);

  const inProvince = useMemo<Institution[]>(
    () => (institutions.data ?? []).filter((i) => value.province_id === null || i.educ_province_id === value.province_id),
    [institutions.data, value.province_id],
  );
  const centres = useCentresOfProvince(value.province_id);
  const schools = inProvince.filter((i) => value.centre_id === null || i.centre_id === value.centre_id);

  return (
    <fieldset className="fieldset" disabled={disabled}>
      <legend className="field__label">{t('users.scope.title')}</legend>
      <p className="field__hint">{t('users.scope.hint')}</p>
      <FormField id={`${idPrefix}-province`} label={t('users.scope.province')} error={errors.province_id ?? null}>
        <select
          id={`${idPrefix}-province`}
          value={value.province_id ?? ''}
          onChange={(event) => onChange({ province_id: toId(event.target.value), centre_id: null, institution_id: null })}
        >
          <option value="">{t('users.scope.anyProvince')}</option>
          {(provinces.data ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </FormField>
      <FormField id={`${idPrefix}-centre`} label={t('users.scope.centre')} error={errors.centre_id ?? null}>
        <select
          id={`${idPrefix}-centre`}
          value={value.centre_id ?? ''}
          disabled={value.province_id === null}
          onChange={(event) => onChange({ ...value, centre_id: toId(event.target.value), institution_id: null })}
        >
          <option value="">{t('users.scope.anyCentre')}</option>
          {(value.province_id === null ? [] : (centres.data ?? [])).map((centre) => (
            <option key={centre.id} value={centre.id}>
              {centre.name}
            </option>
          ))}
        </select>
      </FormField>
      <FormField id={`${idPrefix}-institution`} label={t('users.scope.institution')} error={errors.institution_id ?? null}>
        <select
          id={`${idPrefix}-institution`}
          value={value.institution_id ?? ''}
          disabled={value.province_id === null}
          onChange={(event) => {
            const id = toId(event.target.value);
            const school = schools.find((s) => s.id === id);
            onChange({ ...value, institution_id: id, centre_id: school ? school.centre_id : value.centre_id });
          }}
        >
          <option value="">{t('users.scope.anyInstitution')}</option>
          {schools.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({s.city})
            </option>
          ))}
        </select>
      </FormField>
    </fieldset>
  );
}
