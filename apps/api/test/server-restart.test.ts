import { isAlive, sleep, waitUntil } from '@sceau/process';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanUpPlatforms, demoBatch, makeDataDir, platformChildren, platformEnv, PlatformProcess } from './server-process.ts';

// The whole platform as `npm run serve` starts it, on its embedded database, killed with -9 and
// started again: what it had committed is all there.

let dataDir = '';
let interruptedDir = '';

afterAll(() => cleanUpPlatforms([dataDir, interruptedDir]), 60_000);

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

describe('the platform stopped with Ctrl-C during its start', () => {
  it('stops its embedded PostgreSQL and Anvil with it, and starts again on the same data', { timeout: 180_000 }, async () => {
    interruptedDir = await makeDataDir('sceau-start-stop-');
    const env = await platformEnv(interruptedDir, { DEMO_DATA: 'true', LOG_LEVEL: 'warn' });
    const server = PlatformProcess.launch(env);
    // Both are up (their pid files name this data folder) while the start goes on (the demo batch).
    let children: Awaited<ReturnType<typeof platformChildren>> = [];
    const deadline = Date.now() + 90_000;
    while (server.alive && Date.now() < deadline && (children = await platformChildren(interruptedDir)).length < 2) await sleep(50);
    expect(children.map(({ name }) => name).sort(), server.output()).toEqual(['anvil', 'postgres']);
    const answering = await fetch(`${server.base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    expect(answering, 'the platform had finished starting: nothing left to interrupt').toBe(false);

    server.child.kill('SIGINT');
    expect(await waitUntil(() => !server.alive, 30_000, 50)).toBe(true);
    expect(server.child.exitCode, server.output()).toBe(130);
    expect(server.output()).toContain('stopped during the start');
    // Nothing left running on the data folder: the next start has nothing to clean.
    expect(await waitUntil(() => children.every(({ pid }) => !isAlive(pid)), 30_000, 100)).toBe(true);
    expect(await platformChildren(interruptedDir)).toEqual([]);

    const again = await PlatformProcess.start(env);
    const { diplomaIds } = await demoBatch(again.base);
    const answer = (await fetch(`${again.base}/verify/${diplomaIds[0]}`).then((r) => r.json())) as { data: { verdict: string } };
    expect(answer.data.verdict).toBe('authentic');
  });
});
