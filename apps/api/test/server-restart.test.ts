import { afterAll, describe, expect, it } from 'vitest';
import { cleanUpPlatforms, demoBatch, makeDataDir, platformEnv, PlatformProcess } from './server-process.ts';

// The whole platform as `npm run serve` starts it, on its embedded database, killed with -9 and
// started again: what it had committed is all there.

let dataDir = '';

afterAll(() => cleanUpPlatforms([dataDir]), 60_000);

describe('the platform killed with -9', () => {
  it('keeps every committed row and starts again on the same embedded database', { timeout: 120_000 }, async () => {
    dataDir = await makeDataDir('sceau-restart-');
    const env = await platformEnv(dataDir, { DEMO_DATA: 'true', OTP_RESEND_SECONDS: '0' });
    const first = await PlatformProcess.start(env);
    const base = first.base;

    const contacts = Array.from({ length: 20 }, (_, i) => `restart.${i}@example.cd`);
    // Each registration's attempt (a registration code is bound to it, ADR 0113).
    const attempts = new Map<string, string>();
    for (const contact of contacts) {
      const res = await fetch(`${base}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Kabeya', mail_or_phone: contact, password: 'Restart-2026', password_confirmation: 'Restart-2026' }),
      });
      expect(res.status).toBe(200);
      attempts.set(contact, ((await res.json()) as { data: { registration: string } }).data.registration);
    }

    await first.crash();

    await PlatformProcess.start(env);
    // Each registration committed before the kill is there: asking a code for it reaches the outbox.
    for (const contact of contacts) {
      const res = await fetch(`${base}/register/getOtp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mail_or_phone: contact, registration: attempts.get(contact) }),
      });
      expect(res.status).toBe(200);
    }
    const outbox = (await fetch(`${base}/dev/outbox?limit=200`).then((r) => r.json())) as { data: { to: string }[] };
    const reached = new Set(outbox.data.map((m) => m.to));
    for (const contact of contacts) expect(reached.has(contact), contact).toBe(true);

    // The demo diplomas issued before the kill still verify (database, files, keys and chain all kept).
    const { diplomaIds } = await demoBatch(base);
    for (const id of diplomaIds.slice(0, 3)) {
      const answer = (await fetch(`${base}/verify/${id}`).then((r) => r.json())) as { data: { verdict: string } };
      expect(answer.data.verdict).toBe('authentic');
    }
  });
});
