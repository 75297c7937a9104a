import { zodResolver } from '@hookform/resolvers/zod';
import { NAME_MIN_LENGTH, type GrantableRoleView, type UserView } from '@sceau/contracts';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { dynamicKey, translate } from '@/lib/text-keys';
import { z } from 'zod';
import { describedBy, FormField, SERVER_ERROR_TYPE, useFieldErrorText } from '@/components/form-field';
import { PhoneInput } from '@/components/phone-input';
import { applyServerErrors } from '@/components/server-errors';
import { useMessageText, type Message } from '@/lib/message';
import { ScopeFields } from '@/features/users/scope-fields';
import { useSaveUser, type UserInput } from '@/features/users/users-api';

const EMAIL = z.email();

const userFormSchema = z
  .object({
    name: z.string().trim().min(1, 'validation.required').min(NAME_MIN_LENGTH, 'validation.nameMin'),
    first_name: z.string().trim().max(120),
    email: z.string().trim(),
    phone: z.object({ value: z.string().nullable(), valid: z.boolean() }),
    roles: z.array(z.number()),
    scope: z.object({ province_id: z.number().nullable(), centre_id: z.number().nullable(), institution_id: z.number().nullable() }),
  })
  .superRefine((values, ctx) => {
    if (values.email !== '' && !EMAIL.safeParse(values.email).success) ctx.addIssue({ code: 'custom', path: ['email'], message: 'validation.email' });
    if (!values.phone.valid) ctx.addIssue({ code: 'custom', path: ['phone'], message: 'validation.phone' });
    else if (values.email === '' && !values.phone.value) ctx.addIssue({ code: 'custom', path: ['email'], message: 'validation.contactRequired' });
  });
type UserFormValues = z.infer<typeof userFormSchema>;

function defaultsOf(user: UserView | null): UserFormValues {
  return {
    name: user?.name ?? '',
    first_name: user?.first_name ?? '',
    email: user?.email ?? '',
    phone: { value: user?.phone ?? null, valid: true },
    roles: user?.roles.map((r) => r.id) ?? [],
    scope: {
      province_id: user?.scope.province_id ?? null,
      centre_id: user?.scope.centre_id ?? null,
      institution_id: user?.scope.institution_id ?? null,
    },
  };
}

/**
 * Add or edit a staff account: identity, contact, roles and scope. Roles and scope are changed only
 * where the account's abilities say `change_access` (never one's own account, e.g.): otherwise they
 * are shown disabled and not sent.
 */
export function UserForm({ user, roles, onDone, onCancel }: { user: UserView | null; roles: GrantableRoleView[]; onDone: (saved: UserView) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const save = useSaveUser();
  const [formError, setFormError] = useState<readonly Message[] | null>(null);
  const messageText = useMessageText();
  const mayChangeAccess = user === null || user.abilities.change_access;
  // Offered: the roles the server says this user may give or take away (its grant rule), and those
  // the account already holds, shown but fixed (the server refuses to remove what one may not grant).
  const held = new Set(user?.roles.map((role) => role.id) ?? []);
  const offered = roles.filter((role) => role.grantable || held.has(role.id));

  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<UserFormValues>({ resolver: zodResolver(userFormSchema), defaultValues: defaultsOf(user) });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    const input: UserInput = {
      name: values.name.trim(),
      first_name: values.first_name.trim() || null,
      email: values.email.trim().toLowerCase() || null,
      phone: values.phone.value,
      ...(mayChangeAccess ? { roles: values.roles, ...values.scope } : {}),
    };
    try {
      onDone(await save.mutateAsync({ id: user?.id ?? null, input }));
    } catch (error) {
      const { message, unplaced } = applyServerErrors(error, setError, {
        name: 'name',
        first_name: 'first_name',
        email: 'email',
        phone: 'phone',
        roles: 'roles',
        province_id: 'scope.province_id',
        centre_id: 'scope.centre_id',
        institution_id: 'scope.institution_id',
      });
      setFormError([message, ...unplaced]);
    }
  });

  const prefix = user ? `user-${user.id}` : 'user-new';
  const nameError = errorText(errors.name, { min: NAME_MIN_LENGTH });
  const firstNameError = errorText(errors.first_name);
  const emailError = errorText(errors.email);
  const rolesError = errorText(errors.roles as Parameters<typeof errorText>[0]);

  return (
    <form className="form" noValidate onSubmit={(event) => void onSubmit(event)} aria-label={user ? t('users.form.editTitle') : t('users.form.addTitle')}>
      {formError ? (
        <div className="alert alert--error" role="alert">
          {messageText(formError)}
        </div>
      ) : null}
      <div className="form-grid">
        <FormField id={`${prefix}-name`} label={t('users.form.name')} error={nameError}>
          <input
            id={`${prefix}-name`}
            type="text"
            data-autofocus
            // biome-ignore lint/a11y/noAutofocus: the dialog's first field, focused as the dialog opens.
            autoFocus
            aria-invalid={nameError ? true : undefined}
            aria-describedby={describedBy(`${prefix}-name`, { error: !!nameError })}
            {...register('name')}
          />
        </FormField>
        <FormField id={`${prefix}-first-name`} label={t('users.form.firstName')} error={firstNameError}>
          <input
            id={`${prefix}-first-name`}
            type="text"
            aria-invalid={firstNameError ? true : undefined}
            aria-describedby={describedBy(`${prefix}-first-name`, { error: !!firstNameError })}
            {...register('first_name')}
          />
        </FormField>
        <FormField id={`${prefix}-email`} label={t('users.form.email')} hint={t('users.form.contactHint')} error={emailError}>
          <input
            id={`${prefix}-email`}
            type="email"
            inputMode="email"
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={describedBy(`${prefix}-email`, { hint: true, error: !!emailError })}
            {...register('email')}
          />
        </FormField>
        <Controller
          control={control}
          name="phone"
          render={({ field, fieldState }) => (
            <PhoneInput
              id={`${prefix}-phone`}
              label={t('users.form.phone')}
              optional
              defaultValue={user?.phone ?? null}
              inputRef={field.ref}
              showError={isSubmitted}
              error={fieldState.error?.type === SERVER_ERROR_TYPE ? (fieldState.error.message ?? null) : null}
              onChange={(value, state) => field.onChange({ value, valid: state.valid })}
            />
          )}
        />
      </div>
      {mayChangeAccess ? null : (
        <p className="muted" id={`${prefix}-access-locked`} data-testid="user-access-locked">
          {t('users.form.accessLocked')}
        </p>
      )}
      <Controller
        control={control}
        name="roles"
        render={({ field }) => (
          <fieldset
            className="fieldset"
            disabled={!mayChangeAccess}
            aria-describedby={[rolesError ? `${prefix}-roles-error` : null, mayChangeAccess ? null : `${prefix}-access-locked`].filter(Boolean).join(' ') || undefined}
          >
            <legend className="field__label">{t('users.form.roles')}</legend>
            <ul className="check-list">
              {offered.map((role) => (
                <li key={role.id}>
                  <label className="checkbox" htmlFor={`${prefix}-role-${role.id}`}>
                    <input
                      id={`${prefix}-role-${role.id}`}
                      type="checkbox"
                      checked={field.value.includes(role.id)}
                      disabled={!role.grantable}
                      onChange={(event) => field.onChange(event.target.checked ? [...field.value, role.id] : field.value.filter((id) => id !== role.id))}
                    />
                    <span>{translate(t, dynamicKey(`roles.${role.name}`), { defaultValue: role.name })}</span>
                  </label>
                </li>
              ))}
            </ul>
            {rolesError ? (
              <p id={`${prefix}-roles-error`} className="field__error">
                {rolesError}
              </p>
            ) : null}
          </fieldset>
        )}
      />
      <Controller
        control={control}
        name="scope"
        render={({ field }) => (
          <ScopeFields
            idPrefix={prefix}
            disabled={!mayChangeAccess}
            value={field.value}
            onChange={field.onChange}
            errors={{
              province_id: errorText(errors.scope?.province_id),
              centre_id: errorText(errors.scope?.centre_id),
              institution_id: errorText(errors.scope?.institution_id),
            }}
          />
        )}
      />
      {user ? null : <p className="muted">{t('users.form.temporaryPassword')}</p>}
      <div className="dialog__actions">
        <button type="button" className="button button--secondary" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button" disabled={isSubmitting} aria-busy={isSubmitting}>
          {isSubmitting ? t('common.saving') : user ? t('common.save') : t('users.form.create')}
        </button>
      </div>
    </form>
  );
}
