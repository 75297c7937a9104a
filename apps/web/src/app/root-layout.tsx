import { hasRole } from '@sceau/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router';
import { DeviceNotice } from '@/app/device-notice';
import { Footer } from '@/app/footer';
import { Header } from '@/app/header';
import { OfflineBanner } from '@/app/offline-banner';
import { ProgressBar } from '@/app/progress-bar';
import { isFooterHidden, isHeaderHidden, NOT_FOUND_HANDLE, type RouteHandle } from '@/app/route-meta';
import { Toaster } from '@/app/toaster';
import { useGrants } from '@/lib/session-context';

function isRouteHandle(value: unknown): value is RouteHandle {
  return !!value && typeof value === 'object' && 'name' in value && 'area' in value;
}

/** Layout classes by role (spec section 2): root, admin and backoffice_manager. */
export function layoutClasses(handle: RouteHandle, roles: { root: boolean; admin: boolean; backofficeManager: boolean }) {
  return ['layout', `layout--${handle.area}`, roles.root ? 'layout--root' : '', roles.admin ? 'layout--admin' : '', roles.backofficeManager ? 'layout--backoffice-manager' : '']
    .filter(Boolean)
    .join(' ');
}

export function RootLayout() {
  const { t } = useTranslation();
  const matches = useMatches();
  const grants = useGrants();
  const handle =
    [...matches]
      .reverse()
      .map((match) => match.handle)
      .find(isRouteHandle) ?? NOT_FOUND_HANDLE;
  const { pathname } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(pathname);

  // After a client-side navigation, move focus to the new page so screen readers announce it.
  useEffect(() => {
    if (pathname === firstPath.current) return;
    firstPath.current = '';
    mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);

  const className = layoutClasses(handle, {
    root: hasRole(grants, 'root'),
    admin: hasRole(grants, 'admin'),
    backofficeManager: hasRole(grants, 'backoffice_manager'),
  });

  return (
    <div className={className} data-route={handle.name}>
      <ProgressBar />
      <a className="skip-link" href="#main-content">
        {t('common.skipToContent')}
      </a>
      {isHeaderHidden(handle) ? null : <Header area={handle.area} />}
      {handle.area === 'backoffice' ? <DeviceNotice /> : null}
      <OfflineBanner />
      <main id="main-content" ref={mainRef} tabIndex={-1} className="layout__main">
        <Toaster />
        <Outlet />
      </main>
      {isFooterHidden(handle) ? null : <Footer />}
      <ScrollRestoration />
    </div>
  );
}
