/**
 * `npm run backup` and `npm run restore` (ADR 0121) on the real platform: the demo batch (issued,
 * signed, anchored on the local chain at first start) with one diploma revoked, backed up while the
 * server runs, restored into a fresh DATA_DIR, and every diploma verified on a platform started
 * there: authentic (signature, anchoring found in the restored Anvil state, not revoked), the
 * revoked one still revoked. A corrupted archive, and a non-empty target, are refused.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanUpPlatforms, makeDataDir, platformEnv, PlatformProcess } from './server-process.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];

afterAll(async () => {
  await cleanUpPlatforms(dirs);
}, 120_000);

function cli(script: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', `apps/api/src/cli/${script}.ts`, ...args],
      { cwd: root, env: { ...process.env, LOG_LEVEL: 'error', ...env }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

async function query<R extends pg.QueryResultRow>(env: Record<string, string>, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: `postgres://sceau:sceau@127.0.0.1:${env.EMBEDDED_PG_PORT}/sceau` });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

interface Verification {
  verdict: string;
  checks: Array<{ id?: string; name?: string; status?: string; outcome?: string; details?: Record<string, unknown> }>;
}

async function verify(server: PlatformProcess, id: string): Promise<Verification> {
  const res = await fetch(`${server.base}/verify/${id}`);
  const body = (await res.json()) as { data?: Verification } & Verification;
  return body.data ?? body;
}

describe('backup and restore', () => {
  it('restores a running platform into a fresh DATA_DIR where every diploma verifies', { timeout: 240_000 }, async () => {
    const source = await makeDataDir('sceau-backup-src-');
    const target = `${await makeDataDir('sceau-backup-dst-')}/data`;
    const damagedTarget = `${await makeDataDir('sceau-backup-bad-')}/data`;
    dirs.push(source, path.dirname(target), path.dirname(damagedTarget));
    const archive = path.join(path.dirname(target), 'backup.tar.gz');

    // A platform with the demo batch published, one diploma revoked (on chain too).
    const envA = await platformEnv(source);
    const a = await PlatformProcess.start(envA, { timeoutMs: 120_000 });
    const ids = (await query<{ id: string }>(envA, 'SELECT id FROM diplomas ORDER BY id')).map((r) => r.id);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    const token = (
      (await (
        await fetch(`${a.base}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            grant_type: 'password',
            client_id: 'sceau-web',
            client_secret: 'sceau-web-dev-secret',
            username: 'admin@sceau.example',
            password: 'Sceau-Demo-2026',
          }),
        })
      ).json()) as { access_token: string }
    ).access_token;
    const revoked = ids[0]!;
    const revoke = await fetch(`${a.base}/diplomas/${revoked}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ reason: 'Fraude constatée au centre' }),
    });
    expect(revoke.status, await revoke.text()).toBe(202);
    await waitFor('the revocation on chain', async () => {
      const [row] = await query<{ tx: string | null }>(envA, `SELECT revocation_tx_hash AS tx FROM diplomas WHERE id = '${revoked}'`);
      return row?.tx ?? undefined;
    });
    const before = new Map<string, Verification>();
    for (const id of ids) before.set(id, await verify(a, id));
    expect(before.get(revoked)!.verdict).toBe('revoked');
    expect(before.get(ids[1]!)!.verdict).toBe('authentic');

    // Online backup.
    const t0 = Date.now();
    const backup = await cli('backup', ['--out', archive], envA);
    const backupMs = Date.now() - t0;
    expect(backup.code, backup.out).toBe(0);
    console.log(`backup: ${backupMs} ms, ${(await readFile(archive)).length} bytes\n${backup.out}`);
    await a.stop();

    // A damaged archive is refused, nothing written.
    const damaged = path.join(path.dirname(damagedTarget), 'damaged.tar.gz');
    const bytes = await readFile(archive);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    await writeFile(damaged, bytes);
    const refused = await cli('restore', ['--from', damaged, '--data-dir', damagedTarget], {});
    expect(refused.code).not.toBe(0);
    expect(refused.out).toMatch(/restore refused: the archive .* (damaged|cannot be read)/);
    expect(existsSync(damagedTarget)).toBe(false);

    // Restore into a fresh DATA_DIR.
    const t1 = Date.now();
    const restore = await cli('restore', ['--from', archive, '--data-dir', target], {});
    expect(restore.code, restore.out).toBe(0);
    console.log(`restore: ${Date.now() - t1} ms\n${restore.out}`);
    expect((await readdir(target)).sort()).toEqual(expect.arrayContaining(['chain', 'files', 'keys', 'postgres']));

    // A second restore over it is refused without --force.
    const again = await cli('restore', ['--from', archive, '--data-dir', target], {});
    expect(again.code).not.toBe(0);
    expect(again.out).toMatch(/refusing to restore over existing data/);

    // The restored platform: every diploma verifies as before, from the restored chain state
    // (same anchoring, nothing anchored again).
    // Same PUBLIC_URL: the issuer's identity written into every credential (its key set's address).
    const envB = await platformEnv(target, { PUBLIC_URL: `http://localhost:${envA.PORT}` });
    const b = await PlatformProcess.start(envB, { timeoutMs: 120_000 });
    const restoredIds = (await query<{ id: string }>(envB, 'SELECT id FROM diplomas ORDER BY id')).map((r) => r.id);
    expect(restoredIds).toEqual(ids);
    for (const id of ids) {
      const after = await verify(b, id);
      expect(after.verdict, `${id}: ${JSON.stringify(after)}`).toBe(id === revoked ? 'revoked' : 'authentic');
      expect(JSON.stringify(after.checks)).toBe(JSON.stringify(before.get(id)!.checks));
    }
    expect(b.output()).not.toMatch(/deployed it again|anchors every batch again/);
    await b.stop();
    await rm(archive, { force: true });
  });
});
