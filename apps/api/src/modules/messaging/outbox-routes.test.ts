import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';

let dev: TestContext;
let production: TestContext;
beforeAll(async () => {
  dev = await createTestApp();
  production = await createTestApp({ NODE_ENV: 'production' });
});
afterAll(async () => {
  await dev.close();
  await production.close();
});

describe('GET /api/dev/outbox', () => {
  it('lists what was sent, newest first, filtered by address', async () => {
    await dev.app.inject({ method: 'POST', url: '/api/register/getOtp', payload: { mail_or_phone: 'root@sceau.example', purpose: 'reset_password' } });
    const res = await dev.app.inject({ method: 'GET', url: '/api/dev/outbox?to=ROOT@sceau.example' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0]).toMatchObject({ channel: 'email', to: 'root@sceau.example' });
    expect((await dev.app.inject({ method: 'GET', url: '/api/dev/outbox?to=nobody@example.cd' })).json().data).toEqual([]);
  });

  it('refuses a bad limit, and does not exist in production', async () => {
    expect((await dev.app.inject({ method: 'GET', url: '/api/dev/outbox?limit=abc' })).statusCode).toBe(422);
    expect((await dev.app.inject({ method: 'GET', url: '/api/dev/outbox?limit=5000' })).statusCode).toBe(422);
    expect((await production.app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(404);
  });
});

describe('GET /api/dev/outbox from another machine', () => {
  it('answers only to loopback clients, whatever the server listens on', async () => {
    for (const remoteAddress of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect((await dev.app.inject({ method: 'GET', url: '/api/dev/outbox', remoteAddress })).statusCode, remoteAddress).toBe(200);
    }
    for (const remoteAddress of ['192.168.1.20', '10.0.0.5', '::ffff:192.168.1.20', 'fe80::1']) {
      const res = await dev.app.inject({ method: 'GET', url: '/api/dev/outbox?limit=abc', remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(404); // before validation: nothing learnt
    }
  });

  it('refuses a client a reverse proxy on this machine forwards, and a forged X-Forwarded-For', async () => {
    const viaProxy = await dev.app.inject({ method: 'GET', url: '/api/dev/outbox', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(viaProxy.statusCode).toBe(404);
    const forged = await dev.app.inject({ method: 'GET', url: '/api/dev/outbox', remoteAddress: '203.0.113.7', headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(forged.statusCode).toBe(404);
  });
});
