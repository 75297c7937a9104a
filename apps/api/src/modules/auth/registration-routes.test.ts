import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneTimeCodes, users } from '../../db/schema.ts';
import { codeIn, createTestApp, lastMessageTo, signIn, type TestContext } from '../../../test/helpers.ts';

let ctx: TestContext;
beforeAll(async () => {
  // No wait between codes here, except in the test of the cooldown itself (which uses its own app).
  ctx = await createTestApp({ OTP_RESEND_SECONDS: '0' });
});
afterAll(() => ctx.close());

const post = (url: string, payload: object, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'POST', url, payload, headers });

async function register(contact: string, extra: object = {}) {
  return post('/api/register', { name: 'Kasongo', first_name: 'Aline', mail_or_phone: contact, password: 'Kinshasa-2026', password_confirmation: 'Kinshasa-2026', ...extra });
}

describe('registration with a one-time code', () => {
  it('registers by e-mail, sends a code, and the code signs the person in with no role', async () => {
    const contact = 'aline.kasongo@example.cd';
    expect((await register(contact)).statusCode).toBe(200);
    // Unconfirmed: the password does not open the account yet.
    await expect(signIn(ctx, contact, 'Kinshasa-2026')).rejects.toThrow(/401/);

    const sent = await post('/api/register/getOtp', { mail_or_phone: contact });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().data).toMatchObject({ channel: 'email', expires_in: 600 });
    const message = await lastMessageTo(ctx, contact);
    expect(message?.subject).toBe('Votre code de confirmation Sceau');

    const res = await post('/api/register/validateOtp', { otp: codeIn(message?.text), mail_or_phone: contact });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.access_token).toBeTruthy();
    expect(body.data).toMatchObject({ email: contact, name: 'Kasongo', first_name: 'Aline', roles: [], permissions: [] });
    const me = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${body.access_token}` } });
    expect(me.json().data.data.email).toBe(contact);
    // Confirmed: the password works now.
    await expect(signIn(ctx, contact, 'Kinshasa-2026')).resolves.toBeTruthy();
  });

  it('registers by phone and sends the code by SMS', async () => {
    const phone = '+243899000111';
    await register(phone);
    const sent = await post('/api/register/getOtp', { mail_or_phone: phone }, { 'x-locale': 'en' });
    expect(sent.json().data.channel).toBe('sms');
    const sms = await lastMessageTo(ctx, phone);
    expect(sms?.channel).toBe('sms');
    const res = await post('/api/register/validateOtp', { otp: codeIn(sms?.text), mail_or_phone: phone });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.phone).toBe(phone);
  });

  it('refuses a wrong code with the attempts left, then the sixth attempt even with the right code', async () => {
    const contact = 'essai@example.cd';
    await register(contact);
    await post('/api/register/getOtp', { mail_or_phone: contact });
    const code = codeIn((await lastMessageTo(ctx, contact))?.text);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let left = 4; left >= 1; left--) {
      const res = await post('/api/register/validateOtp', { otp: wrong, mail_or_phone: contact });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.otp).toEqual([`Code incorrect. Tentatives restantes : ${left}`]);
    }
    const fifth = await post('/api/register/validateOtp', { otp: wrong, mail_or_phone: contact }, { 'x-locale': 'en' });
    expect(fifth.json().errors.otp).toEqual(['Too many attempts: ask for a new code']);
    const sixth = await post('/api/register/validateOtp', { otp: code, mail_or_phone: contact });
    expect(sixth.statusCode).toBe(422);
    expect(sixth.json().errors.otp).toEqual(['Trop de tentatives : demandez un nouveau code']);
  });

  it('refuses an expired code', async () => {
    const contact = 'expire@example.cd';
    await register(contact);
    await post('/api/register/getOtp', { mail_or_phone: contact });
    const code = codeIn((await lastMessageTo(ctx, contact))?.text);
    await ctx.db.update(oneTimeCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oneTimeCodes.destination, contact));
    const res = await post('/api/register/validateOtp', { otp: code, mail_or_phone: contact }, { 'x-locale': 'en' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.otp).toEqual(['This code has expired: ask for a new one']);
  });

  it('keeps only the latest code valid', async () => {
    const contact = 'deux.codes@example.cd';
    await register(contact);
    await post('/api/register/getOtp', { mail_or_phone: contact });
    const first = codeIn((await lastMessageTo(ctx, contact))?.text);
    await post('/api/register/getOtp', { mail_or_phone: contact });
    const second = codeIn((await lastMessageTo(ctx, contact))?.text);
    if (first !== second) {
      const old = await post('/api/register/validateOtp', { otp: first, mail_or_phone: contact });
      expect(old.statusCode).toBe(422);
    }
    expect((await post('/api/register/validateOtp', { otp: second, mail_or_phone: contact })).statusCode).toBe(200);
  });

  it('answers the same whether or not an account exists, and tells an existing owner instead of sending a code', async () => {
    const existing = await register('admin@sceau.example');
    const fresh = await register('nouveau@example.cd');
    expect(existing.statusCode).toBe(fresh.statusCode);
    expect(Object.keys(existing.json().data)).toEqual(Object.keys(fresh.json().data));

    const forExisting = await post('/api/register/getOtp', { mail_or_phone: 'admin@sceau.example' });
    const forNobody = await post('/api/register/getOtp', { mail_or_phone: 'personne@example.cd' });
    expect(forExisting.statusCode).toBe(200);
    expect(forExisting.json().data.message).toBe(forNobody.json().data.message);
    const notice = await lastMessageTo(ctx, 'admin@sceau.example');
    expect(notice?.subject).toBe('Un compte Sceau existe déjà');
    expect(notice?.text).not.toMatch(/\b\d{6}\b/);
    expect(await lastMessageTo(ctx, 'personne@example.cd')).toBeUndefined();
    // The existing account's password was not changed by the attempt.
    await expect(signIn(ctx, 'admin@sceau.example')).resolves.toBeTruthy();
  });

  it('validates the form: name, password length, confirmation, contact', async () => {
    const res = await post('/api/register', { name: 'Al', mail_or_phone: 'pas-un-contact', password: 'court', password_confirmation: 'autre' }, { 'x-locale': 'en' });
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors;
    expect(errors.name).toEqual(['At least 3 characters']);
    expect(errors.password).toEqual(['At least 8 characters']);
    expect(errors.mail_or_phone).toEqual(['Enter a valid e-mail address or a phone number in international format']);
    const shortPhone = await post('/api/register', { name: 'Kabamba', mail_or_phone: '+24381234567', password: 'Kinshasa-2026', password_confirmation: 'Kinshasa-2026' });
    expect(shortPhone.json().errors.mail_or_phone).toEqual(['Pour ce pays, le numéro doit contenir exactement 9 chiffres']);
    const belgian = await post('/api/register', { name: 'Kabamba', mail_or_phone: '+321234567890', password: 'Kinshasa-2026', password_confirmation: 'Kinshasa-2026' }, { 'x-locale': 'en' });
    expect(belgian.json().errors.mail_or_phone).toEqual(['For this country, the number must have between 8 and 9 digits']);
    const mismatch = await post('/api/register', { name: 'Kabamba', mail_or_phone: 'k@example.cd', password: 'Kinshasa-2026', password_confirmation: 'Kinshasa-2027' });
    expect(mismatch.json().errors.password_confirmation).toEqual(['La confirmation ne correspond pas au mot de passe']);
  });
});

describe('password recovery', () => {
  it('sends a code to a confirmed account, signs in with it, and sets a new password', async () => {
    const contact = 'controleur@sceau.example';
    const sent = await post('/api/register/getOtp', { mail_or_phone: contact, purpose: 'reset_password' });
    expect(sent.statusCode).toBe(200);
    const message = await lastMessageTo(ctx, contact);
    expect(message?.subject).toBe('Réinitialisation de votre mot de passe Sceau');
    const validated = await post('/api/register/validateOtp', { otp: codeIn(message?.text), mail_or_phone: contact, purpose: 'reset_password' });
    expect(validated.statusCode).toBe(200);
    const token = validated.json().access_token;
    const otherSession = await signIn(ctx, contact);

    const reset = await post(
      '/api/reset-password',
      { mail_or_phone: contact, password: 'Nouveau-Mot-2026', password_confirmation: 'Nouveau-Mot-2026' },
      { authorization: `Bearer ${token}` },
    );
    expect(reset.statusCode).toBe(200);
    expect(reset.json().access_token).toBeTruthy();
    await expect(signIn(ctx, contact, 'Nouveau-Mot-2026')).resolves.toBeTruthy();
    await expect(signIn(ctx, contact)).rejects.toThrow(/401/);
    // Every earlier session ended.
    const old = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${otherSession}` } });
    expect(old.statusCode).toBe(401);
  });

  it('needs a signed-in person, and their own contact', async () => {
    const anonymous = await post('/api/reset-password', { mail_or_phone: 'root@sceau.example', password: 'Nouveau-Mot-2026', password_confirmation: 'Nouveau-Mot-2026' });
    expect(anonymous.statusCode).toBe(401);
    const token = await signIn(ctx, 'validator@sceau.example');
    const other = await post(
      '/api/reset-password',
      { mail_or_phone: 'root@sceau.example', password: 'Nouveau-Mot-2026', password_confirmation: 'Nouveau-Mot-2026' },
      { authorization: `Bearer ${token}` },
    );
    expect(other.statusCode).toBe(422);
    expect(other.json().errors.mail_or_phone).toEqual(['Ce contact ne correspond pas à votre compte']);
  });

  it('sends nothing for an unknown contact but answers the same', async () => {
    const res = await post('/api/register/getOtp', { mail_or_phone: 'inconnu@example.cd', purpose: 'reset_password' });
    expect(res.statusCode).toBe(200);
    expect(await lastMessageTo(ctx, 'inconnu@example.cd')).toBeUndefined();
  });
});

describe('resend cooldown', () => {
  it('refuses another code before the cooldown ends, for any contact', async () => {
    const other = await createTestApp({ OTP_RESEND_SECONDS: '60' });
    try {
      const send = (contact: string) => other.app.inject({ method: 'POST', url: '/api/register/getOtp', payload: { mail_or_phone: contact, purpose: 'reset_password' } });
      for (const contact of ['root@sceau.example', 'nobody-at-all@example.cd']) {
        expect((await send(contact)).statusCode).toBe(200);
        const again = await send(contact);
        expect(again.statusCode).toBe(429);
        expect(Number(again.headers['retry-after'])).toBeGreaterThan(50);
      }
    } finally {
      await other.close();
    }
  });
});

describe('archived accounts', () => {
  it('get no recovery code', async () => {
    await ctx.db.update(users).set({ archivedAt: new Date() }).where(eq(users.email, 'validateur@sceau.example'));
    await post('/api/register/getOtp', { mail_or_phone: 'validateur@sceau.example', purpose: 'reset_password' });
    expect(await lastMessageTo(ctx, 'validateur@sceau.example')).toBeUndefined();
  });
});
