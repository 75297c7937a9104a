import { APP_ROUTES, checkRequirement, type AppRoute } from '@sceau/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Can } from '@/components/permission-gate';
import { IssuedCharts } from '@/features/dashboard/issued-charts';
import { MyBatches } from '@/features/dashboard/my-batches';
import { PublicAccount } from '@/features/dashboard/public-account';
import { useGrants, useSession } from '@/lib/session-context';
import { useDocumentTitle } from '@/lib/use-document-title';
import { dynamicKey, translate } from '@/lib/text-keys';

/** The back-office destinations offered as cards; who sees each comes from the route table. */
const CARDS = [
  { path: '/certificates', key: 'certificates' },
  { path: '/validated', key: 'validated' },
  { path: '/role-access', key: 'roleAccess' },
  { path: '/settings', key: 'settings' },
  { path: '/audit-log', key: 'auditLog' },
  { path: '/permission-test', key: 'permissionTest' },
] as const satisfies readonly { path: AppRoute['path']; key: string }[];

export function DashboardPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('dashboard.title'));
  const { profile } = useSession();
  const grants = useGrants();
  const fullName = [profile?.first_name, profile?.name].filter(Boolean).join(' ');

  // No staff permission: a member of the public, offered the public services rather than an empty back office.
  if (grants.permissions.length === 0) return <PublicAccount name={fullName || t('dashboard.anonymous')} />;

  const cards = CARDS.filter(({ path }) => {
    const route: AppRoute | undefined = APP_ROUTES.find((candidate) => candidate.path === path);
    return !route?.requirement || checkRequirement(grants, route.requirement) === null;
  });

  return (
    <div className="container page">
      <section className="welcome" aria-labelledby="dashboard-title">
        <h1 id="dashboard-title">{t('dashboard.welcome', { name: fullName || t('dashboard.anonymous') })}</h1>
        <p className="muted">{t('dashboard.intro')}</p>
        {grants.roles.length > 0 ? (
          <p className="roles">
            <span>{t('dashboard.roles')}</span>{' '}
            {grants.roles.map((role) => (
              <span key={role} className="badge">
                {translate(t, dynamicKey(`roles.${role}`), { defaultValue: role })}
              </span>
            ))}
          </p>
        ) : null}
      </section>

      <section aria-labelledby="dashboard-actions">
        <h2 id="dashboard-actions" className="section__title section__title--left">
          {t('dashboard.actionsTitle')}
        </h2>
        {cards.length === 0 ? (
          <p className="card muted">{t('dashboard.noAccess')}</p>
        ) : (
          <ul className="card-grid card-grid--fill">
            {cards.map((card) => (
              <li key={card.path}>
                <Link className="card card--link" to={card.path}>
                  <h3>{t(`dashboard.cards.${card.key}.title`)}</h3>
                  <p>{t(`dashboard.cards.${card.key}.text`)}</p>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      <MyBatches />

      {/* The same requirement as GET /generations/stats. */}
      <Can anyPermission={['generation.view', 'generation.create', 'generation.generate']} section="generation">
        <IssuedCharts />
      </Can>
    </div>
  );
}
