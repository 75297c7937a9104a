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
