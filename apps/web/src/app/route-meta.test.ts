import { APP_ROUTES } from '@sceau/contracts';
import { describe, expect, it } from 'vitest';
import { handleFor, isFooterHidden, isHeaderHidden, NOT_FOUND_HANDLE, resolveRoutePath, shouldStickHeader, type Area } from '@/app/route-meta';

function handleOf(path: string) {
  const route = APP_ROUTES.find((r) => r.path === path);
  if (!route) throw new Error(path);
  return handleFor(route);
}

describe('layout rules', () => {
  it('hides the header on the auth screens and the 404 only', () => {
    const hidden = APP_ROUTES.filter((r) => isHeaderHidden(handleFor(r))).map((r) => r.path);
    expect(hidden.sort()).toEqual(['/forgot-password', '/login', '/otp-validation', '/register', '/reset-password']);
    expect(isHeaderHidden(NOT_FOUND_HANDLE)).toBe(true);
  });

  it('hides the footer on the authenticated area, the auth screens and the 404', () => {
    const shown = APP_ROUTES.filter((r) => !isFooterHidden(handleFor(r))).map((r) => r.path);
    expect(shown).toEqual([
      '/',
      '/contact',
      '/verification',
      '/terms-and-conditions',
      '/privacy-policy',
      '/verify/:id',
      '/student-check',
      '/mon-:product',
      '/view-certificate',
      '/direct-auth',
      '/phone-test',
      '/shared/:token',
      '/permission-test',
      '/dev/outbox',
    ]);
    expect(isFooterHidden(NOT_FOUND_HANDLE)).toBe(true);
  });

  it('puts the spec table of authenticated routes in the back office', () => {
    const areas: Record<string, Area> = {
      '/dashboard': 'backoffice',
      '/settings': 'backoffice',
      '/validated': 'backoffice',
      '/login': 'auth',
      '/reset-password': 'auth',
      '/': 'public',
    };
    for (const [path, area] of Object.entries(areas)) expect(handleOf(path).area, path).toBe(area);
  });

  it('makes the header sticky past 50 px, only on home, verification and contact', () => {
    expect(shouldStickHeader('/', 50)).toBe(false);
    expect(shouldStickHeader('/', 51)).toBe(true);
    expect(shouldStickHeader('/verification', 200)).toBe(true);
    expect(shouldStickHeader('/contact', 51)).toBe(true);
    expect(shouldStickHeader('/dashboard', 500)).toBe(false);
    expect(shouldStickHeader('/privacy-policy', 500)).toBe(false);
  });

  it('builds /mon-{product} from the configured product', () => {
    expect(resolveRoutePath('/mon-:product', 'exetat')).toBe('/mon-exetat');
    expect(resolveRoutePath('/show/:id', 'exetat')).toBe('/show/:id');
  });
});
