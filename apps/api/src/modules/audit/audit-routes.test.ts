import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/helpers.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('GET /api/audit-log', () => {
  it('shows root what changed, who did it and from where, newest first, filterable', async () => {
    const root = { authorization: `Bearer ${await signIn(ctx, 'root@sceau.example')}` };
    const admin = { authorization: `Bearer ${await signIn(ctx, 'admin@sceau.example')}` };
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { ...admin, 'user-agent': 'Journey/1.0' },
      remoteAddress: '10.20.30.40',
      payload: { name: 'Mwamba', email: 'mwamba@example.cd', roles: [] },
    });
    expect(created.statusCode).toBe(201);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/oauth/token',
      payload: { grant_type: 'password', client_id: 'sceau-web', client_secret: 'sceau-web-dev-secret', username: 'admin@sceau.example', password: 'wrong-password' },
    });

    const log = await ctx.app.inject({ method: 'GET', url: '/api/audit-log?action=user.created', headers: root });
    expect(log.statusCode).toBe(200);
    const [entry] = log.json().data;
    expect(entry).toMatchObject({
      action: 'user.created',
      actor: 'Jean-Pierre Kabila <admin@sceau.example>',
      subject_type: 'user',
      subject_id: String(created.json().data.id),
      ip: '10.20.30.40',
      user_agent: 'Journey/1.0',
    });

    const family = (await ctx.app.inject({ method: 'GET', url: '/api/audit-log?action=auth', headers: root })).json().data;
    expect(family.map((e: { action: string }) => e.action)).toContain('auth.sign_in_failed');
    expect(family.every((e: { action: string }) => e.action.startsWith('auth.'))).toBe(true);

    const byActor = (await ctx.app.inject({ method: 'GET', url: `/api/audit-log?actor=${entry.actor_id}`, headers: root })).json();
    expect(byActor.data.every((e: { actor_id: number }) => e.actor_id === entry.actor_id)).toBe(true);
    expect(byActor.meta.total).toBeGreaterThan(0);
    const ids = byActor.data.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('is root-only, on the server', async () => {
    const admin = { authorization: `Bearer ${await signIn(ctx, 'admin@sceau.example')}`, 'x-locale': 'en' };
    const res = await ctx.app.inject({ method: 'GET', url: '/api/audit-log', headers: admin });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'forbidden_role', message: 'Insufficient role' });
    // Refused before its input is even looked at; root gets the validation error.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/audit-log?page=abc', headers: admin })).statusCode).toBe(403);
    const root = { authorization: `Bearer ${await signIn(ctx, 'root@sceau.example')}` };
    expect((await ctx.app.inject({ method: 'GET', url: '/api/audit-log?page=abc', headers: root })).statusCode).toBe(422);
  });
});
