import {
  canAccessSection,
  groupPermissions,
  hasAllPermissions,
  hasAnyPermission,
  hasPermission,
  hasRole,
  isAdmin,
  PERMISSIONS,
  ROLES,
  SECTIONS,
  type Permission,
  type Section,
} from '@sceau/contracts';
import { useTranslation } from 'react-i18next';
import { useGrants } from '@/lib/session-context';
import { useDocumentTitle } from '@/lib/use-document-title';

const ANY_EXAMPLE: Permission[] = ['generation.create', 'validation.photo'];
const ALL_EXAMPLE: Permission[] = ['users.list', 'users.create', 'users.edit'];

function Verdict({ value }: { value: boolean }) {
  const { t } = useTranslation();
  return (
    <span className={value ? 'verdict verdict--yes' : 'verdict verdict--no'}>
      <span aria-hidden="true">{value ? '✔' : '✘'}</span> {value ? t('common.yes') : t('common.no')}
    </span>
  );
}

function CheckTable({ caption, rows }: { caption: string; rows: { label: string; value: boolean }[] }) {
  const { t } = useTranslation();
  return (
    <div className="table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table className="table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('permissionTest.check')}</th>
            <th scope="col">{t('permissionTest.result')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">
                <code>{row.label}</code>
              </th>
              <td>
                <Verdict value={row.value} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What the signed-in user holds and what every check of spec section 6 answers for them. */
export function PermissionTestPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('permissionTest.title'));
  const grants = useGrants();
  const groups = Object.entries(groupPermissions(grants.permissions));

  return (
    <div className="container page stack">
      <header>
        <h1>{t('permissionTest.title')}</h1>
        <p className="muted">{t('permissionTest.intro')}</p>
      </header>

      <section className="card" aria-labelledby="pt-roles">
        <h2 id="pt-roles">{t('permissionTest.roles')}</h2>
        {grants.roles.length ? (
          <ul className="chip-list">
            {grants.roles.map((role) => (
              <li key={role} className="badge">
                {role}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{t('permissionTest.none')}</p>
        )}
      </section>

      <section className="card" aria-labelledby="pt-groups">
        <h2 id="pt-groups">{t('permissionTest.groups')}</h2>
        {groups.length ? (
          <dl className="groups">
            {groups.map(([prefix, permissions]) => (
              <div key={prefix} className="groups__item">
                <dt>{prefix}</dt>
                <dd>
                  <ul className="chip-list">
                    {permissions.map((permission) => (
                      <li key={permission} className="badge badge--muted">
                        <code>{permission}</code>
                      </li>
                    ))}
                  </ul>
                </dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="muted">{t('permissionTest.none')}</p>
        )}
      </section>

      <div className="grid-2">
        <CheckTable caption={t('permissionTest.hasPermission')} rows={PERMISSIONS.map((permission) => ({ label: permission, value: hasPermission(grants, permission) }))} />
        <div className="stack">
          <CheckTable
            caption={t('permissionTest.combined')}
            rows={[
              { label: `any(${ANY_EXAMPLE.join(', ')})`, value: hasAnyPermission(grants, ANY_EXAMPLE) },
              { label: `all(${ALL_EXAMPLE.join(', ')})`, value: hasAllPermissions(grants, ALL_EXAMPLE) },
            ]}
          />
          <CheckTable
            caption={t('permissionTest.hasRole')}
            rows={[...ROLES.map((role) => ({ label: role, value: hasRole(grants, role) })), { label: 'isAdmin', value: isAdmin(grants) }]}
          />
          <CheckTable
            caption={t('permissionTest.sections')}
            rows={(Object.keys(SECTIONS) as Section[]).map((section) => ({
              label: section,
              value: canAccessSection(grants, section),
            }))}
          />
        </div>
      </div>
    </div>
  );
}
