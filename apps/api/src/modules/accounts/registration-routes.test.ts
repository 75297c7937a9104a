import argon2 from 'argon2';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { oneTimeCodes, users } from '../../db/schema.ts';
import { codeIn, createTestApp, DEMO_PASSWORD, lastMessageTo, signIn, type TestContext } from '../../../test/helpers.ts';

let ctx: TestContext;
beforeAll(async () => {
  // No wait between codes here, except in the test of the cooldown itself (which uses its own app).
  ctx = await createTestApp({ OTP_RESEND_SECONDS: '0' });
});
afterAll(() => ctx.close());

const post = (url: string, payload: object, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'POST', url, payload, headers });

let address = 0;
/** Registers from an address of its own (registrations are limited per address). */
async function register(contact: string, extra: Record<string, unknown> = {}, remoteAddress = `10.20.${Math.floor(address / 200)}.${(address++ % 200) + 1}`) {
  const password = (extra.password as string | undefined) ?? 'Kinshasa-2026';
  return ctx.app.inject({
    method: 'POST',
    url: '/api/register',
    remoteAddress,
    payload: { name: 'Kasongo', first_name: 'Aline', mail_or_phone: contact, password, password_confirmation: password, ...extra },
  });
}

/** Registers and answers the attempt's secret, which the code calls need. */
async function registered(contact: string, password = 'Kinshasa-2026'): Promise<string> {
  const res = await register(contact, { password });
  expect(res.statusCode).toBe(200);
  return res.json().data.registration;
}

describe('registration with a one-time code', () => {
  it('registers by e-mail, sends a code, and the code signs the person in with no role', async () => {
    const contact = 'aline.kasongo@example.cd';
    const registration = await registered(contact);
    // Unconfirmed: the password does not open the account yet.
    await expect(signIn(ctx, contact, 'Kinshasa-2026')).rejects.toThrow(/401/);

    const sent = await post('/api/register/getOtp', { mail_or_phone: contact, registration });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().data).toMatchObject({ channel: 'email', expires_in: 600 });
    const message = await lastMessageTo(ctx, contact);
    expect(message?.subject).toBe('Votre code de confirmation Sceau');

    const res = await post('/api/register/validateOtp', { otp: codeIn(message?.text), mail_or_phone: contact, registration });
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
    const registration = await registered(phone);
    const sent = await post('/api/register/getOtp', { mail_or_phone: phone, registration }, { 'x-locale': 'en' });
    expect(sent.json().data.channel).toBe('sms');
    const sms = await lastMessageTo(ctx, phone);
    expect(sms?.channel).toBe('sms');
    const res = await post('/api/register/validateOtp', { otp: codeIn(sms?.text), mail_or_phone: phone, registration });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.phone).toBe(phone);
  });

  it('refuses a wrong code with the attempts left, then the sixth attempt even with the right code', async () => {
    const contact = 'essai@example.cd';
    const registration = await registered(contact);
    await post('/api/register/getOtp', { mail_or_phone: contact, registration });
    const code = codeIn((await lastMessageTo(ctx, contact))?.text);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let left = 4; left >= 1; left--) {
      const res = await post('/api/register/validateOtp', { otp: wrong, mail_or_phone: contact, registration });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.otp).toEqual([`Code incorrect. Tentatives restantes : ${left}`]);
    }
    const fifth = await post('/api/register/validateOtp', { otp: wrong, mail_or_phone: contact, registration }, { 'x-locale': 'en' });
    expect(fifth.json().errors.otp).toEqual(['Too many attempts: ask for a new code']);
    const sixth = await post('/api/register/validateOtp', { otp: code, mail_or_phone: contact, registration });
    expect(sixth.statusCode).toBe(422);
    expect(sixth.json().errors.otp).toEqual(['Trop de tentatives : demandez un nouveau code']);
  });

  it('refuses an expired code', async () => {
    const contact = 'expire@example.cd';
    const registration = await registered(contact);
    await post('/api/register/getOtp', { mail_or_phone: contact, registration });
    const code = codeIn((await lastMessageTo(ctx, contact))?.text);
    await ctx.db
      .update(oneTimeCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(oneTimeCodes.destination, contact), like(oneTimeCodes.purpose, 'register:%')));
    const res = await post('/api/register/validateOtp', { otp: code, mail_or_phone: contact, registration }, { 'x-locale': 'en' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.otp).toEqual(['This code has expired: ask for a new one']);
  });

  it('keeps only the latest code valid', async () => {
    const contact = 'deux.codes@example.cd';
    const registration = await registered(contact);
    await post('/api/register/getOtp', { mail_or_phone: contact, registration });
    const first = codeIn((await lastMessageTo(ctx, contact))?.text);
    await post('/api/register/getOtp', { mail_or_phone: contact, registration });
    const second = codeIn((await lastMessageTo(ctx, contact))?.text);
    if (first !== second) {
      const old = await post('/api/register/validateOtp', { otp: first, mail_or_phone: contact, registration });
      expect(old.statusCode).toBe(422);
    }
    expect((await post('/api/register/validateOtp', { otp: second, mail_or_phone: contact, registration })).statusCode).toBe(200);
  });

  it('answers the same whether or not an account exists, and tells an existing owner instead of sending a code', async () => {
    const existing = await register('admin@sceau.example');
    const fresh = await register('nouveau@example.cd');
    expect(existing.statusCode).toBe(fresh.statusCode);
    expect(Object.keys(existing.json().data)).toEqual(Object.keys(fresh.json().data));
    expect(existing.json().data.message).toBe(fresh.json().data.message);

    const forExisting = await post('/api/register/getOtp', { mail_or_phone: 'admin@sceau.example', registration: existing.json().data.registration });
    const forNobody = await post('/api/register/getOtp', { mail_or_phone: 'personne@example.cd', purpose: 'reset_password' });
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
    const belgian = await post(
      '/api/register',
      { name: 'Kabamba', mail_or_phone: '+321234567890', password: 'Kinshasa-2026', password_confirmation: 'Kinshasa-2026' },
      { 'x-locale': 'en' },
    );
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

describe('registration that cannot be hijacked (ADR 0113)', () => {
  async function codeFor(contact: string, registration: string) {
    const sent = await post('/api/register/getOtp', { mail_or_phone: contact, registration });
    expect(sent.statusCode).toBe(200);
    return codeIn((await lastMessageTo(ctx, contact))?.text);
  }

  it("never lets the owner's code confirm a password someone registered after them", async () => {
    const contact = 'victime@example.cd';
    const victim = await registered(contact, 'Mot-De-La-Victime-1');
    const code = await codeFor(contact, victim);
    const attacker = await registered(contact, 'Mot-De-L-Attaquant-1');
    expect(attacker).not.toBe(victim);
    // The victim's attempt was replaced: their code confirms nothing, whatever secret goes with it.
    const withVictim = await post('/api/register/validateOtp', { otp: code, mail_or_phone: contact, registration: victim }, { 'x-locale': 'en' });
    expect(withVictim.statusCode).toBe(422);
    expect(withVictim.json().errors.registration).toEqual(['This registration has expired or was replaced by another one: start the registration again']);
    const withAttacker = await post('/api/register/validateOtp', { otp: code, mail_or_phone: contact, registration: attacker });
    expect(withAttacker.statusCode).toBe(422);
    await expect(signIn(ctx, contact, 'Mot-De-L-Attaquant-1')).rejects.toThrow(/401/);
    // The owner registers again and confirms with the code sent for that attempt: their password only.
    const again = await registered(contact, 'Mot-De-La-Victime-2');
    const confirmed = await post('/api/register/validateOtp', { otp: await codeFor(contact, again), mail_or_phone: contact, registration: again });
    expect(confirmed.statusCode).toBe(200);
    await expect(signIn(ctx, contact, 'Mot-De-La-Victime-2')).resolves.toBeTruthy();
    await expect(signIn(ctx, contact, 'Mot-De-L-Attaquant-1')).rejects.toThrow(/401/);
  });

  it('confirms the registrant who holds the code, not someone who registered the contact first', async () => {
    const contact = '+243899000222';
    const squatter = await registered(contact, 'Mot-Du-Squatteur-1');
    const owner = await registered(contact, 'Mot-Du-Titulaire-1');
    const code = await codeFor(contact, owner);
    expect((await post('/api/register/validateOtp', { otp: code, mail_or_phone: contact, registration: squatter })).statusCode).toBe(422);
    expect((await post('/api/register/validateOtp', { otp: code, mail_or_phone: contact, registration: owner })).statusCode).toBe(200);
    await expect(signIn(ctx, contact, 'Mot-Du-Titulaire-1')).resolves.toBeTruthy();
    await expect(signIn(ctx, contact, 'Mot-Du-Squatteur-1')).rejects.toThrow(/401/);
  });

  it('asks for the registration attempt with a registration code', async () => {
    const res = await post('/api/register/getOtp', { mail_or_phone: 'sans.inscription@example.cd' }, { 'x-locale': 'en' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.registration).toEqual(['Start the registration again: this request belongs to no registration']);
    const unknown = await post('/api/register/validateOtp', { otp: '123456', mail_or_phone: 'sans.inscription@example.cd', registration: 'x'.repeat(32) });
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(unknown.json().errors)).toEqual(['registration']);
  });

  it('does the same work for a contact that has an account and one that has none', async () => {
    const hash = vi.spyOn(argon2, 'hash');
    const time = async (contact: string) => {
      const started = performance.now();
      const res = await register(contact);
      expect(res.statusCode).toBe(200);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i++) {
      known.push(await time('root@sceau.example'));
      unknown.push(await time(`inconnu.${i}@example.cd`));
    }
    expect(hash).toHaveBeenCalledTimes(8);
    hash.mockRestore();
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    // Both hash a password (tens of milliseconds): an existing account's answer is not the quick one.
    expect(median(known)).toBeGreaterThan(median(unknown) / 3);
    await ctx.db.$client.query(`delete from rate_limits`);
  });
});

describe('limits', () => {
  it('limits registrations per contact and per address', async () => {
    for (let i = 0; i < 5; i++) expect((await register('souvent@example.cd')).statusCode).toBe(200);
    const sixth = await register('souvent@example.cd', {}, '10.30.0.1');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().message).toMatch(/Réessayez dans \d+ secondes/);
    for (let i = 0; i < 20; i++) expect((await register(`adresse.${i}@example.cd`, {}, '10.30.0.2')).statusCode).toBe(200);
    const fromAddress = await register('adresse.21@example.cd', {}, '10.30.0.2');
    expect(fromAddress.statusCode).toBe(429);
    expect(Number(fromAddress.headers['retry-after'])).toBeGreaterThan(0);
    await ctx.db.$client.query(`delete from rate_limits`);
  });

  it('caps the codes sent to one contact per day, translated, whether or not it has an account', async () => {
    for (const contact of ['backoffice_manager@sceau.example', 'personne.du.tout@example.cd']) {
      for (let i = 0; i < 10; i++) {
        expect((await post('/api/register/getOtp', { mail_or_phone: contact, purpose: 'reset_password' })).statusCode).toBe(200);
      }
      const eleventh = await post('/api/register/getOtp', { mail_or_phone: contact, purpose: 'reset_password' }, { 'x-locale': 'en' });
      expect(eleventh.statusCode).toBe(429);
      expect(eleventh.json()).toEqual({ code: 'too_many_codes', message: 'Too many codes were sent to this contact today. Try again tomorrow.' });
      expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(86_000);
    }
  });
});

describe('changing a password while signed in', () => {
  const change = (token: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
    post('/api/reset-password', { password: 'Nouveau-Mot-2027', password_confirmation: 'Nouveau-Mot-2027', ...body }, { authorization: `Bearer ${token}`, ...headers });

  it('requires the current password, refuses a wrong one on its field, and throttles the guesses', async () => {
    const token = await signIn(ctx, 'validator@sceau.example');
    const missing = await change(token, { mail_or_phone: 'validator@sceau.example' }, { 'x-locale': 'en' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.current_password).toEqual(['This field is required']);
    for (let i = 0; i < 5; i++) {
      const wrong = await change(token, { mail_or_phone: 'validator@sceau.example', current_password: `pas-le-bon-${i}` });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors.current_password).toEqual(['Mot de passe actuel incorrect']);
    }
    const blocked = await change(token, { mail_or_phone: 'validator@sceau.example', current_password: DEMO_PASSWORD });
    expect(blocked.statusCode).toBe(429);
    await ctx.db.$client.query(`delete from rate_limits`);
    const right = await change(token, { mail_or_phone: 'validator@sceau.example', current_password: DEMO_PASSWORD });
    expect(right.statusCode).toBe(200);
    await expect(signIn(ctx, 'validator@sceau.example', 'Nouveau-Mot-2027')).resolves.toBeTruthy();
  });

  it('needs no current password in the session a recovery code opened, and only there', async () => {
    const contact = 'admin@sceau.example';
    await post('/api/register/getOtp', { mail_or_phone: contact, purpose: 'reset_password' });
    const recovered = await post('/api/register/validateOtp', { otp: codeIn((await lastMessageTo(ctx, contact))?.text), mail_or_phone: contact, purpose: 'reset_password' });
    const otherSession = await signIn(ctx, contact);
    expect((await change(otherSession, { mail_or_phone: contact })).statusCode).toBe(422);
    expect((await change(recovered.json().access_token, { mail_or_phone: contact })).statusCode).toBe(200);
    await expect(signIn(ctx, contact, 'Nouveau-Mot-2027')).resolves.toBeTruthy();
  });
});
