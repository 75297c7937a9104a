import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The whole platform as `npm run serve` starts it, on its embedded database, killed with -9 and
// started again: what it had committed is all there.

const root = path.resolve(import.meta.dirname, '../../..');
const children: ChildProcess[] = [];
let dataDir = '';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startServer(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: root,
    env: { ...process.env, ...env, LOG_LEVEL: 'error', WEB_DIST: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const url = `http://127.0.0.1:${env.PORT}/api/health`;
  for (let i = 0; i < 120; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr.slice(-2000)}`);
    const ok = await fetch(url).then((r) => r.ok).catch(() => false);
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not answer in 30 s');
}

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 2000));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the platform killed with -9', () => {
  it('keeps every committed row and starts again on the same embedded database', { timeout: 120_000 }, async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sceau-restart-'));
    // mkdtemp makes it private to us; as root, the embedded server runs as another user and must enter it.
    await chmod(dataDir, 0o755);
    const env = { DATA_DIR: dataDir, PORT: String(await freePort()), EMBEDDED_PG_PORT: String(await freePort()), CHAIN_PORT: String(await freePort()), DEMO_DATA: 'true', OTP_RESEND_SECONDS: '0' };
    const base = `http://127.0.0.1:${env.PORT}/api`;
    const first = await startServer(env);

    const contacts = Array.from({ length: 20 }, (_, i) => `restart.${i}@example.cd`);
    for (const contact of contacts) {
      const res = await fetch(`${base}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Kabeya', mail_or_phone: contact, password: 'Restart-2026', password_confirmation: 'Restart-2026' }),
      });
      expect(res.status).toBe(200);
    }

    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    await startServer(env);
    // Each registration committed before the kill is there: asking a code for it reaches the outbox.
    for (const contact of contacts) {
      const res = await fetch(`${base}/register/getOtp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mail_or_phone: contact }) });
      expect(res.status).toBe(200);
    }
    const outbox = (await fetch(`${base}/dev/outbox?limit=200`).then((r) => r.json())) as { data: { to: string }[] };
    const reached = new Set(outbox.data.map((m) => m.to));
    for (const contact of contacts) expect(reached.has(contact), contact).toBe(true);

    // The demo diplomas issued before the kill still verify (database, files, keys and chain all kept).
    const token = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', client_id: 'sceau-web', client_secret: 'sceau-web-dev-secret', username: 'root@sceau.example', password: 'Sceau-Demo-2026' }),
    }).then(async (r) => ((await r.json()) as { access_token: string }).access_token);
    const auth = { authorization: `Bearer ${token}` };
    const [batch] = ((await fetch(`${base}/generations/by-user`, { headers: auth }).then((r) => r.json())) as { data: { id: number }[] }).data;
    const detail = (await fetch(`${base}/generations/${batch!.id}`, { headers: auth }).then((r) => r.json())) as { data: { items: { diploma: { id: string } }[] } };
    for (const item of detail.data.items.slice(0, 3)) {
      const answer = (await fetch(`${base}/verify/${item.diploma.id}`).then((r) => r.json())) as { data: { verdict: string } };
      expect(answer.data.verdict).toBe('authentic');
    }
  });
});
