import { PERMISSIONS } from '@sceau/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeIn, createTestApp, lastMessageTo, signIn, type TestContext } from '../../../test/helpers.ts';

let ctx: TestContext;
let admin: Record<string, string>;
let root: Record<string, string>;
let roleIds: Record<string, number>;

beforeAll(async () => {
  ctx = await createTestApp();
  admin = { authorization: `Bearer ${await signIn(ctx, 'admin@sceau.example')}` };
  root = { authorization: `Bearer ${await signIn(ctx, 'root@sceau.example')}` };
  const roles = (await ctx.app.inject({ method: 'GET', url: '/api/roles', headers: admin })).json().data as { id: number; name: string }[];
  roleIds = Object.fromEntries(roles.map((r) => [r.name, r.id]));
});
afterAll(() => ctx.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
  ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

describe('users and roles', () => {
  it('lists roles with their permissions', async () => {
    const res = await call('GET', '/api/roles', admin);
    const roles = res.json().data as { name: string; permissions: { name: string }[] }[];
    expect(roles.map((r) => r.name)).toEqual(expect.arrayContaining(['root', 'admin', 'validateur', 'controleur', 'backoffice_manager', 'validator']));
    expect(roles.find((r) => r.name === 'root')!.permissions).toHaveLength(PERMISSIONS.length);
  });

  it('pages, searches and filters by role', async () => {
    const page = await call('GET', '/api/users?page=1&per_page=4', admin);
    expect(page.statusCode).toBe(200);
    expect(page.json().meta).toEqual({ current_page: 1, last_page: 2, per_page: 4, total: 6 });
    const search = await call('GET', '/api/users?search=mukendi', admin);
    expect(search.json().data.map((u: { email: string }) => u.email)).toEqual(['controleur@sceau.example']);
    const byName = await call('GET', '/api/users?role=validateur', admin);
    const byId = await call('GET', `/api/users?role=${roleIds.validateur}`, admin);
    expect(byName.json().data.map((u: { email: string }) => u.email)).toEqual(['validateur@sceau.example']);
    expect(byId.json().data).toEqual(byName.json().data);
  });

  it('lets an admin add an account, which receives a temporary password to change at first sign-in', async () => {
    const res = await call('POST', '/api/users', admin, {
      name: 'Nzuzi',
      first_name: 'Béatrice',
      email: 'B.Nzuzi@Ministere.example',
      roles: [roleIds.validateur],
      province_id: 1,
    });
    expect(res.statusCode).toBe(201);
    const user = res.json().data;
    expect(user).toMatchObject({ email: 'b.nzuzi@ministere.example', roles: [{ name: 'validateur' }], scope: { province_id: 1, centre_id: null }, verified: true });
    expect(user.scope.province_name).toEqual(expect.any(String));
    const message = await lastMessageTo(ctx, 'b.nzuzi@ministere.example');
    const password = message?.text.match(/temporaire : (\S+)/)?.[1];
    expect(password).toBeTruthy();
    const token = await signIn(ctx, 'b.nzuzi@ministere.example', password);
    const me = await call('GET', '/api/me', { authorization: `Bearer ${token}` });
    expect(me.json().data.data.password_reset_required).toBe(true);
    expect(me.json().data.data.permissions).toEqual(['generation.view', 'validation.data', 'validation.photo']);
  });

  it('refuses a taken e-mail, a missing contact and an unknown role with field messages', async () => {
    const taken = await call('POST', '/api/users', admin, { name: 'Double', email: 'root@sceau.example', roles: [] });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.email).toEqual(['Cette adresse e-mail est déjà utilisée']);
    const none = await call('POST', '/api/users', { ...admin, 'x-locale': 'en' }, { name: 'Personne', roles: [] });
    expect(none.json().errors.email).toEqual(['A phone number or an e-mail address is required']);
    const role = await call('POST', '/api/users', admin, { name: 'Inconnu', email: 'x@example.cd', roles: [99999] });
    expect(role.json().errors.roles).toEqual(['Rôle inconnu']);
  });

  it('edits an account and its roles, and an admin cannot grant root nor touch a root account', async () => {
    const [target] = (await call('GET', '/api/users?search=lukusa', admin)).json().data;
    const edited = await call('PUT', `/api/users/${target.id}`, admin, { first_name: 'Dan', roles: [roleIds.controleur, roleIds.validator] });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data.roles.map((r: { name: string }) => r.name)).toEqual(['controleur', 'validator']);
    expect((await call('GET', `/api/users/${target.id}`, admin)).json().data.first_name).toBe('Dan');

    const raise = await call('PUT', `/api/users/${target.id}`, admin, { roles: [roleIds.root] });
    expect(raise.statusCode).toBe(422);
    expect(raise.json().errors.roles).toEqual(['Vous ne pouvez pas attribuer ce rôle']);
    const [rootUser] = (await call('GET', '/api/users?role=root', admin)).json().data;
    const touchRoot = await call('PUT', `/api/users/${rootUser.id}`, admin, { name: 'Changed' });
    expect(touchRoot.statusCode).toBe(403);
    // root may.
    expect((await call('PUT', `/api/users/${target.id}`, root, { roles: [roleIds.validator] })).statusCode).toBe(200);
  });

  it('resets a password: sessions end, a temporary one is sent', async () => {
    const [target] = (await call('GET', '/api/users?search=ilunga', admin)).json().data;
    const before = await signIn(ctx, 'backoffice_manager@sceau.example');
    const res = await call('POST', `/api/users/${target.id}/reset`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.channel).toBe('email');
    expect((await call('GET', '/api/me', { authorization: `Bearer ${before}` })).statusCode).toBe(401);
    const password = (await lastMessageTo(ctx, 'backoffice_manager@sceau.example'))?.text.match(/temporaire : (\S+)/)?.[1];
    await expect(signIn(ctx, 'backoffice_manager@sceau.example', password)).resolves.toBeTruthy();
  });

  it('archives several accounts at once (root): they can no longer sign in', async () => {
    const ids = (await call('GET', '/api/users?search=sceau.example', admin))
      .json()
      .data.filter((u: { email: string }) => ['validateur@sceau.example', 'controleur@sceau.example'].includes(u.email))
      .map((u: { id: number }) => u.id);
    const token = await signIn(ctx, 'validateur@sceau.example');
    // admin lacks users.delete.
    expect((await call('DELETE', '/api/users', admin, { users: ids })).statusCode).toBe(403);
    const res = await call('DELETE', '/api/users', { ...root, 'x-locale': 'en' }, { users: ids });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ archived: 2, message: '2 accounts archived.' });
    await expect(signIn(ctx, 'validateur@sceau.example')).rejects.toThrow(/401/);
    expect((await call('GET', '/api/me', { authorization: `Bearer ${token}` })).statusCode).toBe(401);
    const archived = (await call('GET', '/api/users?archived=1', admin)).json().data.map((u: { email: string }) => u.email);
    expect(archived.sort()).toEqual(['controleur@sceau.example', 'validateur@sceau.example']);
  });

  it('refuses every users call to a role without the users section, on the server', async () => {
    const validator = { authorization: `Bearer ${await signIn(ctx, 'validator@sceau.example')}` };
    for (const [method, url, payload] of [
      ['GET', '/api/users', undefined],
      ['GET', '/api/roles', undefined],
      ['POST', '/api/users', { name: 'Intrus', email: 'intrus@example.cd', roles: [] }],
      ['PUT', '/api/users/1', { name: 'Intrus' }],
      ['POST', '/api/users/1/reset', undefined],
      ['DELETE', '/api/users', { users: [1] }],
    ] as const) {
      const res = await call(method, url, validator, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('answers bad input with 422', async () => {
    expect((await call('GET', '/api/users?page=0', admin)).statusCode).toBe(422);
    expect((await call('DELETE', '/api/users', root, { users: [] })).statusCode).toBe(422);
    expect((await call('PUT', '/api/users/abc', admin, { name: 'X' })).statusCode).toBe(422);
    expect((await call('POST', '/api/users', admin, { name: 'Téléphone', phone: '08123', roles: [] })).json().errors.phone).toBeDefined();
  });

  it('reads a national phone number with its leading 0 by the contracts’ one rule (ADR 0129)', async () => {
    const res = await call('POST', '/api/users', admin, { name: 'Kalala', first_name: 'Josué', phone: '081 765 4321', roles: [roleIds.validateur], province_id: 1 });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.phone).toBe('+243817654321');
  });
});

describe('codes reach the person through the outbox', () => {
  it('keeps each message as a file the development page lists', async () => {
    await ctx.app.inject({ method: 'POST', url: '/api/register/getOtp', payload: { mail_or_phone: 'admin@sceau.example', purpose: 'reset_password' } });
    expect(codeIn((await lastMessageTo(ctx, 'admin@sceau.example'))?.text)).toMatch(/^\d{6}$/);
  });
});
