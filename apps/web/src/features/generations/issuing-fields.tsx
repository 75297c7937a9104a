import { useTranslation } from 'react-i18next';
import { describedBy, FormField } from '@/components/form-field';
import { useEducProvinces, useExamSessions } from '@/features/reference-data/reference-data-api';

/** Reference-data selects of the issuing forms (session and educational province). */
export function SessionSelect({
  id,
  value,
  onChange,
  error,
  required = true,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  required?: boolean;
}) {
  const { t } = useTranslation();
  const sessions = useExamSessions();
  return (
    <FormField id={id} label={t('issuing.session')} error={error ?? (sessions.isError ? sessions.error.message : null)}>
      <select
        id={id}
        value={value}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { error: !!error || sessions.isError })}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{sessions.isPending ? t('common.loading') : t('issuing.chooseSession')}</option>
        {(sessions.data ?? []).map((session) => (
          <option key={session.id} value={session.id}>
            {session.name}
          </option>
        ))}
      </select>
    </FormField>
  );
}

export function ProvinceSelect({ id, value, onChange, error }: { id: string; value: string; onChange: (value: string) => void; error?: string | null }) {
  const { t } = useTranslation();
  const provinces = useEducProvinces();
  return (
    <FormField id={id} label={t('issuing.province')} error={error ?? (provinces.isError ? provinces.error.message : null)}>
      <select
        id={id}
        value={value}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { error: !!error || provinces.isError })}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{provinces.isPending ? t('common.loading') : t('issuing.chooseProvince')}</option>
        {(provinces.data ?? []).map((province) => (
          <option key={province.id} value={province.id}>
            {province.name}
          </option>
        ))}
      </select>
    </FormField>
  );
}

/** The session marked current, once the sessions are loaded. */
export function useDefaultSession(): string {
  const sessions = useExamSessions();
  const current = sessions.data?.find((session) => session.is_current) ?? null;
  return current ? String(current.id) : '';
}
