import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import { createTestApp, DEMO_PASSWORD, signIn, type TestContext } from '../../../test/helpers.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('a temporary password must be changed first, by the API itself (ADR 0113)', () => {
  it('refuses every other call with a distinct translated 403, then works once changed', async () => {
    await ctx.db.update(users).set({ passwordResetRequired: true }).where(eq(users.email, 'admin@sceau.example'));
    const token = await signIn(ctx, 'admin@sceau.example');

    const list = await ctx.app.inject({ method: 'GET', url: '/api/users', headers: { ...bearer(token), 'x-locale': 'en' } });
    expect(list.statusCode).toBe(403);
    expect(list.json()).toEqual({ code: 'password_change_required', message: 'Choose a new password first: your current password is temporary.' });
    const stats = await ctx.app.inject({ method: 'GET', url: '/api/generations/stats', headers: bearer(token) });
    expect(stats.statusCode).toBe(403);
    expect(stats.json().message).toBe("Choisissez d'abord un nouveau mot de passe : votre mot de passe actuel est temporaire.");
    // A public route is not affected.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health', headers: bearer(token) })).statusCode).not.toBe(403);

    const me = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.data.password_reset_required).toBe(true);

    // The temporary password counts as the current one.
    const changed = await ctx.app.inject({
      method: 'POST',
      url: '/api/reset-password',
      headers: bearer(token),
      payload: { mail_or_phone: 'admin@sceau.example', current_password: DEMO_PASSWORD, password: 'Choisi-Par-Moi-1', password_confirmation: 'Choisi-Par-Moi-1' },
    });
    expect(changed.statusCode).toBe(200);
    const fresh = changed.json().access_token;
    expect((await ctx.app.inject({ method: 'GET', url: '/api/users', headers: bearer(fresh) })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/user/logout', headers: bearer(fresh) })).statusCode).toBe(200);
  });

  it('still lets the person sign out', async () => {
    await ctx.db.update(users).set({ passwordResetRequired: true }).where(eq(users.email, 'controleur@sceau.example'));
    const token = await signIn(ctx, 'controleur@sceau.example');
    expect((await ctx.app.inject({ method: 'POST', url: '/api/user/logout', headers: bearer(token) })).statusCode).toBe(200);
  });
});

describe('text that cannot be stored (NUL, control characters, lone surrogates)', () => {
  const unstorable = (res: { statusCode: number; json(): { code: string; errors?: Record<string, string[]> } }, field: string) => {
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('validation_failed');
    expect(res.json().errors?.[field]).toEqual(['This field contains a character that is not allowed (a control or invalid character)']);
  };
  const en = { 'x-locale': 'en' };

  it('is refused with a translated 422 on its field, in every kind of route, never a 500', async () => {
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/oauth/token',
      headers: en,
      payload: { grant_type: 'password', client_id: ctx.config.oauth.clientId, client_secret: ctx.config.oauth.clientSecret, username: 'root\u0000@sceau.example', password: 'x' },
    });
    unstorable(login, 'username');

    const register = await ctx.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: en,
      payload: { name: 'Kasongo\u0000', mail_or_phone: 'nul@example.cd', password: 'Kinshasa-2026', password_confirmation: 'Kinshasa-2026' },
    });
    unstorable(register, 'name');

    const contact = await ctx.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: en,
      payload: { name: 'Kasongo', mail_or_phone: 'nul@example.cd', subject: 'Un sujet correct', message: 'Un message \ud800 avec une moitié de caractère' },
    });
    unstorable(contact, 'message');

    const token = await signIn(ctx, 'root@sceau.example');
    const user = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { ...bearer(token), ...en },
      payload: { name: 'Mbuyi', first_name: 'A\u0007B', email: 'mbuyi@example.cd', roles: [] },
    });
    unstorable(user, 'first_name');

    const query = await ctx.app.inject({ method: 'GET', url: '/api/users?search=%00', headers: { ...bearer(token), ...en } });
    unstorable(query, 'search');
    const publicPath = await ctx.app.inject({ method: 'GET', url: '/api/verify/abc%00def', headers: en });
    expect(publicPath.statusCode).toBe(422);

    // A multipart form's text fields too.
    const boundary = 'sceau-boundary';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="kind"',
      '',
      'ministry',
      `--${boundary}`,
      'Content-Disposition: form-data; name="name"',
      '',
      'Nom\u0000',
      `--${boundary}`,
      'Content-Disposition: form-data; name="title"',
      '',
      'Ministre',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const multipart = await ctx.app.inject({
      method: 'POST',
      url: '/api/signatures',
      headers: { ...bearer(token), ...en, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    unstorable(multipart, 'name');
  });

  it('keeps tabs and line breaks, and characters outside the basic plane', async () => {
    const contact = await ctx.app.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: '192.0.2.77',
      payload: { name: 'Kasongo 😀', mail_or_phone: 'ok@example.cd', subject: 'Un sujet\tcorrect', message: 'Première ligne\r\nSeconde ligne 𝄞 suffisamment longue' },
    });
    expect(contact.statusCode).toBe(201);
  });
});
