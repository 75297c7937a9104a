import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { Messenger } from './messaging-service.ts';

// Real protocols against local stand-ins: an SMTP server (smtp-server, from the nodemailer project)
// and an HTTP endpoint shaped like the SMS gateway.
let smtp: SMTPServer;
let smtpPort: number;
const received: { from: string; to: string[]; raw: string }[] = [];
let gateway: Server;
let gatewayPort: number;
const sms: { auth: string | undefined; body: { from: string; to: string; text: string } }[] = [];
let gatewayFails = false;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;

  gateway = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (gatewayFails) return res.writeHead(503).end('{"error":"maintenance"}');
      sms.push({ auth: req.headers.authorization, body: JSON.parse(body) });
      res.writeHead(202, { 'content-type': 'application/json' }).end('{"status":"queued"}');
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  gatewayPort = (gateway.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await new Promise((resolve) => gateway.close(resolve));
});

function messenger() {
  return new Messenger(
    loadConfig({
      DATA_DIR: '/nonexistent-because-nothing-goes-to-the-outbox',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'Sceau <no-reply@sceau.example>',
      SMS_GATEWAY_URL: `http://127.0.0.1:${gatewayPort}/v1/messages`,
      SMS_GATEWAY_TOKEN: 'gateway-secret',
      SMS_SENDER: 'MINEDU',
    }),
  );
}

describe('mail over SMTP', () => {
  it('delivers the translated message to the SMTP server', async () => {
    const m = messenger();
    expect(m.usesOutbox).toEqual({ email: false, sms: false });
    await m.send('eleve@example.cd', 'otp_register', 'fr', { code: '482913', minutes: 10 });
    const mail = received.at(-1)!;
    expect(mail.to).toEqual(['eleve@example.cd']);
    expect(mail.from).toBe('no-reply@sceau.example');
    expect(mail.raw).toMatch(/Subject: =\?UTF-8\?Q\?Votre_code_de_confirmation_Sceau\?=|Subject: Votre code de confirmation Sceau/);
    expect(mail.raw).toContain('482913');
  });
});

describe('SMS over the HTTP gateway', () => {
  it('posts the message with the token and sender', async () => {
    await messenger().send('+243812345678', 'otp_reset_password', 'en', { code: '120045', minutes: 10 });
    expect(sms.at(-1)).toEqual({
      auth: 'Bearer gateway-secret',
      body: { from: 'MINEDU', to: '+243812345678', text: 'Sceau: your password reset code is 120045. It expires in 10 min.' },
    });
  });

  it('fails loudly when the gateway refuses, so the caller does not record a code nobody received', async () => {
    gatewayFails = true;
    try {
      await expect(messenger().send('+243812345678', 'otp_register', 'fr', { code: '1', minutes: 10 })).rejects.toThrow(/503/);
    } finally {
      gatewayFails = false;
    }
  });
});
