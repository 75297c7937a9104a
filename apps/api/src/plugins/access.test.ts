import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createTestApp, signIn, type TestContext } from '../../test/helpers.ts';

let ctx: TestContext;
let probe: Awaited<ReturnType<typeof buildApp>>;

// A second app on the same database with probe routes guarded like the spec's pages.
beforeAll(async () => {
  ctx = await createTestApp();
  probe = await buildApp({ db: ctx.db, config: ctx.config });
  probe.register(
    async (api) => {
      api.get('/probe/settings', { config: { access: { anyRole: ['root', 'admin'] } } }, async () => ({ ok: true }));
      api.get('/probe/validate-data', { config: { access: { anyPermission: ['validation.data'], section: 'validation' } } }, async () => ({ ok: true }));
      api.get('/probe/role-access', { config: { access: { allPermissions: ['users.list', 'users.create', 'users.edit'], section: 'users' } } }, async () => ({ ok: true }));
      api.get('/probe/signatures', { config: { access: { section: 'signatures' } } }, async () => ({ ok: true }));
    },
    { prefix: '/api' },
  );
  await probe.ready();
});
afterAll(async () => {
  await probe.close();
  await ctx.close();
});

async function call(url: string, role: string, locale = 'fr') {
  const token = await signIn(ctx, `${role}@sceau.example`);
  return probe.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, 'x-locale': locale } });
}

describe('access policies on the server', () => {
  it('answers "Rôle insuffisant" to a role that is not root or admin', async () => {
    const res = await call('/api/probe/settings', 'validateur');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'forbidden_role', message: 'Rôle insuffisant' });
    expect((await call('/api/probe/settings', 'admin')).statusCode).toBe(200);
  });

  it('answers "Accès non autorisé" to a missing permission, in English when asked', async () => {
    const res = await call('/api/probe/role-access', 'admin', 'en');
    // admin holds users.list, users.create and users.edit: allowed.
    expect(res.statusCode).toBe(200);
    const refused = await call('/api/probe/validate-data', 'backoffice_manager');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ code: 'forbidden_permission', message: 'Accès non autorisé' });
    const english = await call('/api/probe/validate-data', 'backoffice_manager', 'en');
    expect(english.json().message).toBe('Unauthorized access');
  });

  it('answers "Accès à cette section non autorisé" when no permission of the section is held', async () => {
    const res = await call('/api/probe/signatures', 'controleur');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'forbidden_section', message: 'Accès à cette section non autorisé' });
    expect((await call('/api/probe/signatures', 'admin')).statusCode).toBe(200);
  });

  it('asks a visitor to sign in before anything else', async () => {
    const res = await probe.inject({ method: 'GET', url: '/api/probe/settings' });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthenticated');
  });

  it('refuses to start with an /api route that declares no access policy', async () => {
    const app = await buildApp({ db: ctx.db, config: ctx.config });
    await expect(
      app.register(async (api) => {
        api.get('/api/forgotten', async () => ({}));
      }),
    ).rejects.toThrow(/declares no access policy/);
    await app.close().catch(() => {});
  });
});
