import { DEFAULT_ROLE_PERMISSIONS, ROLES, type RoleName } from '@sceau/contracts';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../../db/schema.ts';
import { createTestApp, DEMO_PASSWORD, signIn, type TestContext } from '../../../test/helpers.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ LOGIN_MAX_FAILURES: '3' });
});
afterAll(() => ctx.close());

function tokenRequest(username: string, password: string, overrides: Record<string, string> = {}) {
  return {
    method: 'POST' as const,
    url: '/api/oauth/token',
    payload: {
      grant_type: 'password',
      client_id: ctx.config.oauth.clientId,
      client_secret: ctx.config.oauth.clientSecret,
      username,
      password,
      scope: '',
      ...overrides,
    },
  };
}

describe('POST /api/oauth/token', () => {
  it.each(ROLES)('signs in the demo %s and /api/me lists exactly its permissions', async (role) => {
    const token = await signIn(ctx, `${role}@sceau.example`);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    const profile = res.json().data.data;
    expect(profile.email).toBe(`${role}@sceau.example`);
    expect(profile.roles.map((r: { name: string }) => r.name)).toEqual([role]);
    const expected = [...DEFAULT_ROLE_PERMISSIONS[role as RoleName]].sort();
    expect(profile.permissions).toEqual(expected);
    expect(profile.roles[0].permissions.map((p: { name: string }) => p.name).sort()).toEqual(expected);
  });

  it('accepts the e-mail in any case and the phone number in national or international form', async () => {
    await expect(signIn(ctx, 'ADMIN@Sceau.Example')).resolves.toBeTruthy();
    await expect(signIn(ctx, '+243810000002')).resolves.toBeTruthy();
    await expect(signIn(ctx, '0810000002')).resolves.toBeTruthy();
  });

  it('answers a wrong password and an unknown account the same way, translated', async () => {
    const wrong = await ctx.app.inject(tokenRequest('controleur@sceau.example', 'not-the-password'));
    const unknown = await ctx.app.inject({ ...tokenRequest('nobody@sceau.example', DEMO_PASSWORD), headers: { 'x-locale': 'en' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ code: 'invalid_credentials', message: 'Contact ou mot de passe invalide' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ code: 'invalid_credentials', message: 'Invalid contact or password' });
  });

  it('refuses an unknown client and another grant type', async () => {
    const client = await ctx.app.inject(tokenRequest('root@sceau.example', DEMO_PASSWORD, { client_secret: 'guess' }));
    expect(client.statusCode).toBe(401);
    expect(client.json().code).toBe('invalid_client');
    const grant = await ctx.app.inject(tokenRequest('root@sceau.example', DEMO_PASSWORD, { grant_type: 'client_credentials' }));
    expect(grant.statusCode).toBe(400);
    expect(grant.json().code).toBe('unsupported_grant_type');
  });

  it('answers a malformed request with per-field messages in the request language', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/oauth/token',
      headers: { 'accept-language': 'en-GB,en;q=0.9' },
      payload: { grant_type: 'password', username: '' },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.code).toBe('validation_failed');
    expect(body.message).toBe('Invalid data');
    expect(body.errors.client_id).toEqual(['This field is required']);
    expect(body.errors.password).toEqual(['This field is required']);
    expect(body.errors.username).toEqual(['This field is required']);
  });

  it('rate-limits repeated failures for a login, even when the right password finally comes', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await ctx.app.inject(tokenRequest('validator@sceau.example', `wrong-${i}-password`));
      expect(res.statusCode).toBe(401);
    }
    const blocked = await ctx.app.inject(tokenRequest('validator@sceau.example', DEMO_PASSWORD));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('rate_limited');
    expect(blocked.json().message).toMatch(/Réessayez dans \d+ secondes/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another account from elsewhere is not affected.
    await expect(signIn(ctx, 'validateur@sceau.example')).resolves.toBeTruthy();
  });

  it('counts every spelling of a phone number against the one account', async () => {
    // validateur: +243810000003. LOGIN_MAX_FAILURES is 3 here.
    const spellings = ['+243810000003', '0810000003', '243810000003'];
    for (const spelling of spellings) {
      const res = await ctx.app.inject({ ...tokenRequest(spelling, 'wrong-password'), remoteAddress: '10.9.0.1' });
      expect(res.statusCode).toBe(401);
    }
    const fourth = await ctx.app.inject({ ...tokenRequest('+243 81 000 0003', DEMO_PASSWORD), remoteAddress: '10.9.0.2' });
    expect(fourth.statusCode).toBe(429);
    const byEmail = await ctx.app.inject({ ...tokenRequest('VALIDATEUR@sceau.example', DEMO_PASSWORD), remoteAddress: '10.9.0.3' });
    expect(byEmail.statusCode).toBe(429);
    await ctx.db.$client.query(`delete from rate_limits`);
  });

  it('lets at most LOGIN_MAX_FAILURES of 30 concurrent wrong passwords be checked, the rest 429', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => ctx.app.inject({ ...tokenRequest('controleur@sceau.example', `wrong-${i}-password`), remoteAddress: '10.9.1.1' })),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(3);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(27);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    const failures = await ctx.db.$client.query(`select count(*)::int as n from audit_log where action = 'auth.sign_in_failed' and ip = '10.9.1.1'`);
    expect(failures.rows[0].n).toBeLessThanOrEqual(3);
    await ctx.db.$client.query(`delete from rate_limits`);
  });

  it('writes sign-ins and failed attempts to the audit log with the address', async () => {
    await ctx.app.inject({ ...tokenRequest('backoffice_manager@sceau.example', 'wrong-password'), remoteAddress: '10.1.2.3' });
    const [failure] = await ctx.db.select().from(auditLog).where(eq(auditLog.action, 'auth.sign_in_failed')).orderBy(desc(auditLog.id)).limit(1);
    expect(failure).toMatchObject({ actorLabel: 'backoffice_manager@sceau.example', ip: '10.1.2.3', actorId: null });

    await signIn(ctx, 'backoffice_manager@sceau.example');
    const [user] = await ctx.db.select().from(users).where(eq(users.email, 'backoffice_manager@sceau.example'));
    const [success] = await ctx.db.select().from(auditLog).where(eq(auditLog.action, 'auth.signed_in')).orderBy(desc(auditLog.id)).limit(1);
    expect(success?.actorId).toBe(user!.id);
  });
});

describe('tokens', () => {
  it('refuses a missing, unknown or revoked token', async () => {
    const none = await ctx.app.inject({ method: 'GET', url: '/api/me' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ code: 'unauthenticated', message: 'Veuillez vous connecter pour continuer' });

    const forged = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: 'Bearer forged-token' } });
    expect(forged.statusCode).toBe(401);

    const token = await signIn(ctx, 'admin@sceau.example');
    const auth = { authorization: `Bearer ${token}` };
    const out = await ctx.app.inject({ method: 'POST', url: '/api/user/logout', headers: { ...auth, 'x-locale': 'en' } });
    expect(out.statusCode).toBe(200);
    expect(out.json().data.message).toBe('You are signed out');
    const after = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: auth });
    expect(after.statusCode).toBe(401);
  });

  it('stores only a hash of the token', async () => {
    const token = await signIn(ctx, 'root@sceau.example');
    const { rows } = await ctx.db.$client.query('select token_hash from access_tokens');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
  });

  it('stops working once the account is archived', async () => {
    const token = await signIn(ctx, 'controleur@sceau.example');
    await ctx.db.update(users).set({ archivedAt: new Date() }).where(eq(users.email, 'controleur@sceau.example'));
    const res = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(401);
    const again = await ctx.app.inject(tokenRequest('controleur@sceau.example', DEMO_PASSWORD));
    expect(again.statusCode).toBe(401);
  });

  it('stops working once expired', async () => {
    const token = await signIn(ctx, 'validateur@sceau.example');
    await ctx.db.$client.query(`update access_tokens set expires_at = now() - interval '1 second'`);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(401);
  });
});
