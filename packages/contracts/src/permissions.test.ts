import { describe, expect, it } from 'vitest';
import {
  canAccessSection,
  checkRequirement,
  DEFAULT_ROLE_PERMISSIONS,
  flattenGrants,
  groupPermissions,
  hasAllPermissions,
  hasAnyPermission,
  hasAnyRole,
  hasPermission,
  hasRole,
  isAdmin,
  PERMISSIONS,
  type Grants,
} from './permissions.ts';
import { APP_ROUTES, type AppRoute } from './routes.ts';

const grantsOf = (role: keyof typeof DEFAULT_ROLE_PERMISSIONS): Grants => ({ roles: [role], permissions: DEFAULT_ROLE_PERMISSIONS[role] });

describe('the catalogue of spec section 6', () => {
  it('has the 18 permissions of the spec, diplomas.revoke (ADR 0120) and reference.manage (ADR 0139)', () => {
    expect(PERMISSIONS).toHaveLength(20);
    expect(new Set(PERMISSIONS).size).toBe(20);
    expect(PERMISSIONS).toContain('diplomas.revoke');
    expect(PERMISSIONS).toContain('reference.manage');
  });

  it('gives root everything and admin exactly its list', () => {
    expect([...DEFAULT_ROLE_PERMISSIONS.root].sort()).toEqual([...PERMISSIONS].sort());
    const admin = grantsOf('admin');
    for (const p of [
      'users.delete',
      'signatures.delete',
      'broadcast.send',
      'generation.download.one',
      'generation.download.many',
      'generation.share.email',
      'generation.view.rejected',
    ] as const) {
      expect(hasPermission(admin, p)).toBe(false);
    }
    // The spec's eleven, revocation (ADR 0120) and keeping schools and centres (ADR 0139; a national account only, by policy).
    expect(DEFAULT_ROLE_PERMISSIONS.admin).toHaveLength(13);
    expect(hasPermission(admin, 'diplomas.revoke')).toBe(true);
    expect(hasPermission(admin, 'reference.manage')).toBe(true);
    expect([...DEFAULT_ROLE_PERMISSIONS.validateur].sort()).toEqual(['generation.view', 'validation.data', 'validation.photo']);
    expect([...DEFAULT_ROLE_PERMISSIONS.controleur].sort()).toEqual(['generation.view', 'validation.data']);
  });
});

describe('checks', () => {
  const validateur = grantsOf('validateur');
  it('answers permission, any, all, role, any role and admin', () => {
    expect(hasPermission(validateur, 'validation.photo')).toBe(true);
    expect(hasAnyPermission(validateur, ['users.list', 'validation.data'])).toBe(true);
    expect(hasAnyPermission(validateur, ['users.list', 'users.edit'])).toBe(false);
    expect(hasAllPermissions(validateur, ['validation.photo', 'validation.data'])).toBe(true);
    expect(hasAllPermissions(validateur, ['validation.photo', 'users.list'])).toBe(false);
    expect(hasRole(validateur, 'validateur')).toBe(true);
    expect(hasAnyRole(validateur, ['root', 'admin'])).toBe(false);
    expect(isAdmin(validateur)).toBe(false);
    expect(isAdmin(grantsOf('admin'))).toBe(true);
    expect(isAdmin(grantsOf('root'))).toBe(true);
  });

  it('opens a section with any one of its permissions', () => {
    expect(canAccessSection({ roles: [], permissions: ['generation.generate'] }, 'generation')).toBe(true);
    expect(canAccessSection({ roles: [], permissions: ['generation.view.rejected'] }, 'generation')).toBe(false);
    expect(canAccessSection(grantsOf('controleur'), 'validation')).toBe(true);
    expect(canAccessSection(grantsOf('controleur'), 'users')).toBe(false);
  });

  it('groups permissions by the prefix before the first dot', () => {
    expect(groupPermissions(['generation.view.rejected', 'generation.view', 'users.list'])).toEqual({
      generation: ['generation.view.rejected', 'generation.view'],
      users: ['users.list'],
    });
  });

  it('flattens the permissions of several roles into their union', () => {
    const grants = flattenGrants([
      { name: 'controleur', permissions: [{ name: 'validation.data' }, { name: 'generation.view' }] },
      { name: 'validateur', permissions: [{ name: 'validation.photo' }, { name: 'validation.data' }] },
    ]);
    expect(grants).toEqual({ roles: ['controleur', 'validateur'], permissions: ['generation.view', 'validation.data', 'validation.photo'] });
  });

  it('fails a requirement on role first, then permission, then section', () => {
    const nobody: Grants = { roles: [], permissions: [] };
    expect(checkRequirement(nobody, { anyRole: ['root'], anyPermission: ['users.list'], section: 'users' })).toBe('role');
    expect(checkRequirement(nobody, { anyPermission: ['users.list'], section: 'users' })).toBe('permission');
    expect(checkRequirement(nobody, { section: 'users' })).toBe('section');
    expect(checkRequirement(grantsOf('admin'), { anyRole: ['root', 'admin'] })).toBeNull();
  });
});

describe('the route table of spec section 2', () => {
  const route = (path: string): AppRoute => (APP_ROUTES as readonly AppRoute[]).find((r) => r.path === path)!;
  const allowed = (path: string, role: keyof typeof DEFAULT_ROLE_PERMISSIONS) => {
    const r = route(path);
    return !r.requirement || checkRequirement(grantsOf(role), r.requirement) === null;
  };

  it('lets each default role open what the spec gives it', () => {
    expect(allowed('/role-access', 'admin')).toBe(true);
    expect(allowed('/role-access', 'validateur')).toBe(false);
    expect(allowed('/settings', 'admin')).toBe(true);
    expect(allowed('/settings', 'backoffice_manager')).toBe(false);
    expect(allowed('/certificates', 'controleur')).toBe(true);
    expect(allowed('/check-file/:id', 'controleur')).toBe(false);
    expect(allowed('/validate-picture/:id', 'controleur')).toBe(false);
    expect(allowed('/validate-data/:id', 'controleur')).toBe(true);
    expect(allowed('/validated', 'validator')).toBe(true);
    expect(allowed('/otp-generation/:id', 'validateur')).toBe(false);
    expect(allowed('/permission-test', 'admin')).toBe(true);
    expect(allowed('/permission-test', 'controleur')).toBe(false);
  });

  it('needs users.list, users.create and users.edit together for /role-access', () => {
    const partial: Grants = { roles: [], permissions: ['users.list', 'users.create'] };
    expect(checkRequirement(partial, route('/role-access').requirement!)).toBe('permission');
  });
});
