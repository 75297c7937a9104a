import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages } from '../../db/schema.ts';
import { createTestApp, lastMessageTo, type TestContext } from '../../../test/helpers.ts';
import { CONTACT_MESSAGES_PER_HOUR } from './contact-routes.ts';

let ctx: TestContext;
const INBOX = 'ecrire@ministere.example';

beforeAll(async () => {
  ctx = await createTestApp({ CONTACT_EMAIL: INBOX });
});
afterAll(() => ctx?.close());

const message = {
  name: 'Aline Mukendi',
  mail_or_phone: 'aline@example.cd',
  subject: 'Diplôme introuvable',
  message: "Bonjour, je ne trouve pas mon diplôme de la session 2026 à l'Institut Lumumba.",
};

const send = (payload: object, remoteAddress = '192.0.2.10', headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url: '/api/contact', payload, remoteAddress, headers });

describe('POST /contact', () => {
  it('stores the message and e-mails it to the provider (in the outbox), answering "Form submitted successfully!"', async () => {
    const res = await send(message, '192.0.2.10', { 'x-locale': 'en', 'user-agent': 'Test phone' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ data: { received: true, message: 'Form submitted successfully!' } });

    const [stored] = await ctx.db.select().from(contactMessages).orderBy(desc(contactMessages.id)).limit(1);
    expect(stored).toMatchObject({ name: 'Aline Mukendi', contact: 'aline@example.cd', subject: 'Diplôme introuvable', locale: 'en', ip: '192.0.2.10', userAgent: 'Test phone' });
    expect(stored!.forwardedAt).not.toBeNull();

    const mail = await lastMessageTo(ctx, INBOX);
    expect(mail?.channel).toBe('email');
    expect(mail?.subject).toBe('[Contact] Diplôme introuvable');
    expect(mail?.text).toContain('Aline Mukendi');
    expect(mail?.text).toContain('aline@example.cd');
    expect(mail?.text).toContain('je ne trouve pas mon diplôme');
    expect(mail?.text).toContain(`n° ${stored!.id}`);

    const fr = await send({ ...message, mail_or_phone: '+243812345678' }, '192.0.2.11');
    expect(fr.json().data.message).toBe('Formulaire envoyé avec succès !');
  });

  it('checks each field (422, translated) and stores nothing then', async () => {
    const before = (await ctx.db.select().from(contactMessages)).length;
    const res = await send({ name: 'Al', mail_or_phone: 'pas-un-contact', subject: '', message: 'court' }, '192.0.2.12', { 'x-locale': 'en' });
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors as Record<string, string[]>;
    expect(Object.keys(errors).sort()).toEqual(['mail_or_phone', 'message', 'name', 'subject']);
    expect(errors.subject).toEqual(['This field is required']);
    expect((await ctx.db.select().from(contactMessages)).length).toBe(before);
  });

  it('drops a robot\'s message (the hidden "website" field filled) while answering alike', async () => {
    const before = (await ctx.db.select().from(contactMessages)).length;
    const res = await send({ ...message, subject: 'Offre spéciale', website: 'https://spam.example' }, '192.0.2.13');
    expect(res.statusCode).toBe(201);
    expect((await ctx.db.select().from(contactMessages)).length).toBe(before);
    expect(await ctx.db.select().from(contactMessages).where(eq(contactMessages.subject, 'Offre spéciale'))).toEqual([]);
  });

  it(`accepts ${CONTACT_MESSAGES_PER_HOUR} messages an hour from one address, then 429`, async () => {
    for (let i = 0; i < CONTACT_MESSAGES_PER_HOUR; i++) expect((await send(message, '192.0.2.20')).statusCode).toBe(201);
    const blocked = await send(message, '192.0.2.20', { 'x-locale': 'en' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect((await send(message, '192.0.2.21')).statusCode).toBe(201);
  });
});
