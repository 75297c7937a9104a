import { hasAnyRole } from '@sceau/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation, useNavigate } from 'react-router';
import { isStickyHeaderPath, shouldStickHeader, type Area } from '@/app/route-meta';
import { Brand } from '@/components/brand';
import { Can } from '@/components/permission-gate';
import { LanguageSelect } from '@/components/language-select';
import { useGrants, useSession, useSessionStore } from '@/lib/session-context';

const PUBLIC_LINKS = [
  { to: '/', key: 'nav.home', end: true },
  { to: '/verification', key: 'nav.verification', end: false },
  { to: '/student-check', key: 'nav.studentCheck', end: false },
  { to: '/contact', key: 'nav.contact', end: false },
] as const;

function useStickyHeader(pathname: string): boolean {
  const [sticky, setSticky] = useState(false);
  useEffect(() => {
    if (!isStickyHeaderPath(pathname)) {
      setSticky(false);
      return;
    }
    const update = () => setSticky(shouldStickHeader(pathname, window.scrollY));
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [pathname]);
  return sticky;
}

export function Header({ area }: { area: Area }) {
  const { t } = useTranslation();
  const { isLoggedIn } = useSession();
  const grants = useGrants();
  const session = useSessionStore();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const sticky = useStickyHeader(location.pathname);
  // The side menu is open for the page it was opened on: navigating closes it in the same render.
  const [menuOpenedAt, setMenuOpenedAt] = useState<string | null>(null);
  const menuOpen = menuOpenedAt === location.key;
  const setMenuOpen = (open: boolean) => setMenuOpenedAt(open ? location.key : null);
  const menuRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const inBackOffice = area === 'backoffice';
  // The spec's validator check when the header mounts: validators get their own styling hook.
  const isValidator = hasAnyRole(grants, ['validateur', 'validator']);

  // It also closes on a click outside it, and on Escape.
  useEffect(() => {
    if (!menuOpen) return;
    const onPointerDown = (event: Event) => {
      const target = event.target as Node | null;
      if (!target || menuRef.current?.contains(target) || toggleRef.current?.contains(target)) return;
      setMenuOpenedAt(null);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpenedAt(null);
      toggleRef.current?.focus();
    };
    document.addEventListener('mousedown', onPointerDown);
    document.addEventListener('touchstart', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
      document.removeEventListener('touchstart', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [menuOpen]);

  async function logout() {
    await session.logout();
    queryClient.clear();
    await navigate('/', { replace: true });
  }

  const classes = ['site-header', sticky ? 'site-header--sticky' : '', isValidator ? 'is-validator' : ''].filter(Boolean);

  return (
    <header className={classes.join(' ')} data-area={area}>
      <div className="container site-header__bar">
        <Brand to={inBackOffice ? '/dashboard' : '/'} />
        <button
          ref={toggleRef}
          type="button"
          className="site-header__toggle"
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          aria-label={menuOpen ? t('header.closeMenu') : t('header.openMenu')}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <span className="hamburger" aria-hidden="true" />
        </button>
        <div id="site-menu" ref={menuRef} className="site-header__menu" data-open={menuOpen}>
          <nav aria-label={t('nav.label')}>
            <ul className="site-nav">
              {inBackOffice ? (
                <>
                  <li>
                    <NavLink to="/dashboard">{t('nav.dashboard')}</NavLink>
                  </li>
                  <Can section="users">
                    <li>
                      <NavLink to="/role-access">{t('nav.roleAccess')}</NavLink>
                    </li>
                  </Can>
                </>
              ) : (
                PUBLIC_LINKS.map((link) => (
                  <li key={link.to}>
                    <NavLink to={link.to} end={link.end}>
                      {t(link.key)}
                    </NavLink>
                  </li>
                ))
              )}
            </ul>
          </nav>
          <div className="site-header__actions">
            <LanguageSelect />
            {!isLoggedIn ? (
              <NavLink className="button button--small" to="/login">
                {t('header.login')}
              </NavLink>
            ) : inBackOffice ? (
              <button type="button" className="button button--small button--secondary" onClick={() => void logout()}>
                {t('header.logout')}
              </button>
            ) : (
              <NavLink className="button button--small" to="/dashboard">
                {t('header.myAccount')}
              </NavLink>
            )}
          </div>
        </div>
      </div>
      {menuOpen ? <div className="site-header__backdrop" aria-hidden="true" /> : null}
    </header>
  );
}
