import { DISTRIBUTION_LIMITS, type GrantableRoleView, type UserView } from '@sceau/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, Dialog } from '@/components/dialog';
import { ErrorAlert } from '@/components/error-alert';
import { Pagination } from '@/components/pagination';
import { Can } from '@/components/permission-gate';
import { UserForm } from '@/features/users/user-form';
import { useArchiveUsers, useResetUserPassword, useRoles, useSendSignInLink, useUser, useUsers, type UserSort, type UsersFilter } from '@/features/users/users-api';
import { useFlashStore } from '@/lib/flash-context';
import { isApiError } from '@/lib/http';
import { keyMessage } from '@/lib/message';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useDocumentTitle } from '@/lib/use-document-title';
import { dynamicKey, translate } from '@/lib/text-keys';

type Editing = { kind: 'add' } | { kind: 'edit'; user: UserView } | null;

function fullName(user: Pick<UserView, 'first_name' | 'name'>): string {
  return [user.first_name, user.name].filter(Boolean).join(' ');
}

function messageOf(error: unknown, fallback: string): string {
  return isApiError(error) ? error.message : fallback;
}

/** The form, once the user to edit has been read again (GET /users/{id}). */
function EditUser({ id, roles, onDone, onCancel }: { id: number; roles: GrantableRoleView[]; onDone: (saved: UserView) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const user = useUser(id);
  if (user.isError) return <ErrorAlert error={user.error} onRetry={() => void user.refetch()} />;
  if (!user.data) return <p role="status">{t('common.loading')}</p>;
  return <UserForm user={user.data} roles={roles} onDone={onDone} onCancel={onCancel} />;
}

/** Staff accounts: list, filter, add, edit, reset a password, archive (spec section 2, /role-access). */
export function RoleAccessPage() {
  const { t } = useTranslation();
  const title = t('users.title');
  useDocumentTitle(title);
  const flash = useFlashStore();

  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText, 300);
  const [filter, setFilter] = useState<Omit<UsersFilter, 'search'>>({ page: 1, role: '', sort: 'name', archived: false });
  const query: UsersFilter = { ...filter, search };
  // A new search starts from the first page.
  const [searchedFor, setSearchedFor] = useState(search);
  if (searchedFor !== search) {
    setSearchedFor(search);
    setFilter((f) => ({ ...f, page: 1 }));
  }

  const users = useUsers(query);
  const roles = useRoles();
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<Editing>(null);
  const [resetting, setResetting] = useState<UserView | null>(null);
  const [archiving, setArchiving] = useState(false);
  const reset = useResetUserPassword();
  const archive = useArchiveUsers();
  const [linking, setLinking] = useState<UserView | null>(null);
  const signInLink = useSendSignInLink();

  const rows = users.data?.data ?? [];
  // What may be done to each account is its abilities (the server's policy: scope, permission, root
  // by root only, not oneself, not archived); the selection is for archiving, so only where one may.
  const archivable = rows.filter((u) => u.abilities.archive);
  const canSelect = !filter.archived && archivable.length > 0;
  const allSelected = archivable.length > 0 && archivable.every((u) => selected.includes(u.id));

  function update(next: Partial<Omit<UsersFilter, 'search'>>) {
    setFilter((f) => ({ ...f, page: 1, ...next }));
    setSelected([]);
  }

  function scopeOf(user: UserView): string {
    const parts: string[] = [];
    if (user.scope.province_id !== null) parts.push(user.scope.province_name ?? t('users.scope.provinceNumber', { id: user.scope.province_id }));
    if (user.scope.centre_id !== null) parts.push(user.scope.centre_name ?? t('users.scope.centreNumber', { id: user.scope.centre_id }));
    if (user.scope.institution_id !== null) parts.push(user.scope.institution_name ?? t('users.scope.institutionNumber', { id: user.scope.institution_id }));
    return parts.length ? parts.join(' · ') : t('users.scope.national');
  }

  function statusOf(user: UserView): { label: string; tone: string } {
    if (user.archived) return { label: t('users.status.archived'), tone: 'badge--muted' };
    if (!user.verified) return { label: t('users.status.unverified'), tone: 'badge--warning' };
    return { label: t('users.status.active'), tone: 'badge--info' };
  }

  function onSaved(saved: UserView) {
    const key = editing?.kind === 'edit' ? 'users.updated' : 'users.created';
    flash.pushMessage(keyMessage(key, { name: fullName(saved) }), 'success');
    setEditing(null);
  }

  async function confirmReset() {
    if (!resetting) return;
    try {
      const answer = await reset.mutateAsync(resetting.id);
      flash.pushText(answer.message, 'success');
      setResetting(null);
    } catch {
      // Shown in the dialog.
    }
  }

  async function confirmSignInLink() {
    if (!linking) return;
    try {
      const answer = await signInLink.mutateAsync(linking.id);
      flash.pushText(answer.message, 'success');
      setLinking(null);
    } catch {
      // Shown in the dialog.
    }
  }

  async function confirmArchive() {
    try {
      const answer = await archive.mutateAsync(selected);
      flash.pushText(answer.message, 'success');
      setSelected([]);
      setArchiving(false);
    } catch {
      // Shown in the dialog.
    }
  }

  return (
    <div className="container page stack">
      <header className="page-header">
        <div>
          <h1>{title}</h1>
          <p className="muted">{t('users.intro')}</p>
        </div>
        <Can permission="users.create">
          <button type="button" className="button" onClick={() => setEditing({ kind: 'add' })}>
            {t('users.add')}
          </button>
        </Can>
      </header>

      <section className="card toolbar" aria-label={t('users.filters')}>
        <div className="field">
          <label className="field__label" htmlFor="users-search">
            {t('users.search')}
          </label>
          <input id="users-search" type="search" value={searchText} onChange={(event) => setSearchText(event.target.value)} placeholder={t('users.searchPlaceholder')} />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="users-role">
            {t('users.role')}
          </label>
          <select id="users-role" value={filter.role} onChange={(event) => update({ role: event.target.value })}>
            <option value="">{t('users.allRoles')}</option>
            {(roles.data ?? []).map((role: GrantableRoleView) => (
              <option key={role.id} value={role.name}>
                {translate(t, dynamicKey(`roles.${role.name}`), { defaultValue: role.name })}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="users-sort">
            {t('users.sort')}
          </label>
          <select id="users-sort" value={filter.sort} onChange={(event) => update({ sort: event.target.value as UserSort })}>
            <option value="name">{t('users.sortBy.name')}</option>
            <option value="created_at">{t('users.sortBy.created_at')}</option>
            <option value="role">{t('users.sortBy.role')}</option>
          </select>
        </div>
        <label className="checkbox toolbar__toggle" htmlFor="users-archived">
          <input id="users-archived" type="checkbox" checked={filter.archived} onChange={(event) => update({ archived: event.target.checked })} />
          <span>{t('users.showArchived')}</span>
        </label>
      </section>

      {canSelect && selected.length > 0 ? (
        <div className="selection-bar" role="region" aria-label={t('users.selection')}>
          <span aria-live="polite">{t('users.selected', { count: selected.length })}</span>
          <button type="button" className="button button--danger button--small" onClick={() => setArchiving(true)}>
            {t('users.archiveSelected')}
          </button>
        </div>
      ) : null}

      <ErrorAlert error={users.error} onRetry={() => void users.refetch()} />

      <div className="table-wrap table-wrap--cards" role="region" aria-label={t('users.caption')} tabIndex={0}>
        <table className="table table--cards" aria-busy={users.isFetching}>
          <caption className="visually-hidden">{t('users.caption')}</caption>
          <thead>
            <tr>
              {canSelect ? (
                <th scope="col" className="table__check">
                  <input
                    type="checkbox"
                    aria-label={t('users.selectAll')}
                    checked={allSelected}
                    onChange={(event) => setSelected(event.target.checked ? archivable.map((u) => u.id) : [])}
                  />
                </th>
              ) : null}
              <th scope="col">{t('users.columns.name')}</th>
              <th scope="col">{t('users.columns.contact')}</th>
              <th scope="col">{t('users.columns.roles')}</th>
              <th scope="col">{t('users.columns.scope')}</th>
              <th scope="col">{t('users.columns.status')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('users.columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.isPending ? (
              <tr>
                <td colSpan={7}>{t('common.loading')}</td>
              </tr>
            ) : rows.length === 0 && !users.isError ? (
              <tr>
                <td colSpan={7}>{t('users.empty')}</td>
              </tr>
            ) : (
              rows.map((user) => {
                const status = statusOf(user);
                const name = fullName(user);
                return (
                  <tr key={user.id} data-testid={`user-row-${user.id}`}>
                    {canSelect ? (
                      <td className="table__check">
                        {user.abilities.archive ? (
                          <input
                            type="checkbox"
                            aria-label={t('users.selectOne', { name })}
                            checked={selected.includes(user.id)}
                            onChange={(event) => setSelected((ids) => (event.target.checked ? [...ids, user.id] : ids.filter((id) => id !== user.id)))}
                          />
                        ) : null}
                      </td>
                    ) : null}
                    <th scope="row" data-label={t('users.columns.name')}>
                      {name}
                    </th>
                    <td data-label={t('users.columns.contact')}>
                      {[user.email, user.phone].filter(Boolean).map((contact) => (
                        <span key={contact} className="table__line">
                          {contact}
                        </span>
                      ))}
                    </td>
                    <td data-label={t('users.columns.roles')}>
                      {user.roles.length === 0 ? (
                        <span className="muted">{t('users.noRole')}</span>
                      ) : (
                        user.roles.map((role) => (
                          <span key={role.id} className="badge">
                            {translate(t, dynamicKey(`roles.${role.name}`), { defaultValue: role.name })}
                          </span>
                        ))
                      )}
                    </td>
                    <td data-label={t('users.columns.scope')}>{scopeOf(user)}</td>
                    <td data-label={t('users.columns.status')}>
                      <span className={`badge ${status.tone}`}>{status.label}</span>
                    </td>
                    <td className="table__actions">
                      {user.abilities.edit ? (
                        <button
                          type="button"
                          className="button button--secondary button--small"
                          aria-label={t('users.editOne', { name })}
                          onClick={() => setEditing({ kind: 'edit', user })}
                        >
                          {t('common.edit')}
                        </button>
                      ) : null}
                      {user.abilities.reset_password ? (
                        <button
                          type="button"
                          className="button button--ghost button--small"
                          aria-label={t('users.resetOne', { name })}
                          onClick={() => {
                            reset.reset();
                            setResetting(user);
                          }}
                        >
                          {t('users.reset')}
                        </button>
                      ) : null}
                      {user.abilities.send_sign_in_link ? (
                        <button
                          type="button"
                          className="button button--ghost button--small"
                          aria-label={t('users.signInLinkOne', { name })}
                          onClick={() => {
                            signInLink.reset();
                            setLinking(user);
                          }}
                        >
                          {t('users.signInLink')}
                        </button>
                      ) : null}
                    </td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>

      <Pagination meta={users.data?.meta} onPage={(page) => setFilter((f) => ({ ...f, page }))} label={t('users.pagination')} />

      <Dialog open={editing !== null} size="large" title={editing?.kind === 'edit' ? t('users.form.editTitle') : t('users.form.addTitle')} onClose={() => setEditing(null)}>
        {editing?.kind === 'edit' ? (
          <EditUser id={editing.user.id} roles={roles.data ?? []} onCancel={() => setEditing(null)} onDone={onSaved} />
        ) : editing ? (
          <UserForm user={null} roles={roles.data ?? []} onCancel={() => setEditing(null)} onDone={onSaved} />
        ) : null}
      </Dialog>

      <ConfirmDialog
        open={linking !== null}
        title={t('users.signInLinkTitle')}
        message={linking ? t('users.signInLinkConfirm', { name: fullName(linking), minutes: DISTRIBUTION_LIMITS.staffLinkMinutes }) : ''}
        confirmLabel={t('users.signInLinkSend')}
        busy={signInLink.isPending}
        error={signInLink.isError ? messageOf(signInLink.error, t('errors.generic')) : null}
        onConfirm={() => void confirmSignInLink()}
        onClose={() => setLinking(null)}
      />

      <ConfirmDialog
        open={resetting !== null}
        title={t('users.resetTitle')}
        message={resetting ? t('users.resetConfirm', { name: fullName(resetting) }) : ''}
        confirmLabel={t('users.resetPassword')}
        busy={reset.isPending}
        error={reset.isError ? messageOf(reset.error, t('errors.generic')) : null}
        onConfirm={() => void confirmReset()}
        onClose={() => setResetting(null)}
      />

      <ConfirmDialog
        open={archiving}
        danger
        title={t('users.archiveTitle')}
        message={t('users.archiveConfirm', { count: selected.length })}
        confirmLabel={t('users.archive')}
        busy={archive.isPending}
        error={archive.isError ? messageOf(archive.error, t('errors.generic')) : null}
        onConfirm={() => void confirmArchive()}
        onClose={() => {
          archive.reset();
          setArchiving(false);
        }}
      />
    </div>
  );
}
