import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { productionProblems } from './safe-defaults.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const safe = {
  NODE_ENV: 'production',
  OAUTH_CLIENT_SECRET: 'a-long-random-production-secret',
  MINISTRY_KEY_FILE: '/etc/sceau/ministry-key.pem',
  MINISTRY_CERTIFICATE_FILE: '/etc/sceau/ministry-chain.pem',
  SMTP_URL: 'smtp://relay.ministry.example:587',
  SMS_GATEWAY_URL: 'https://sms.ministry.example/send',
  TSA_URL: 'https://tsa.trust-provider.example/tsr',
};

describe('production refuses development settings', () => {
  it('names each unsafe setting, and none once all are set', () => {
    expect(productionProblems(loadConfig(safe))).toEqual([]);
    const { OAUTH_CLIENT_SECRET: _s, SMS_GATEWAY_URL: _g, ...two } = safe;
    expect(productionProblems(loadConfig(two)).map((p) => p.split(' ')[0])).toEqual(['OAUTH_CLIENT_SECRET', 'SMS_GATEWAY_URL']);
    expect(productionProblems(loadConfig({ ...safe, MINISTRY_CERTIFICATE_FILE: '' }))).toHaveLength(1);
    expect(productionProblems(loadConfig({ ...safe, DEMO_DATA: 'true' })).map((p) => p.split(' ')[0])).toEqual(['DEMO_DATA']);
    // The platform's own development TSA is refused as its development signing key is (ADR 0135).
    expect(productionProblems(loadConfig({ ...safe, TSA_URL: '' })).map((p) => p.split(' ')[0])).toEqual(['TSA_URL']);
    // Development keeps its conveniences.
    expect(productionProblems(loadConfig({}))).toEqual([]);
  });

  it('the server exits non-zero with one message listing every problem, before touching anything', { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sceau-refuse-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
        cwd: root,
        env: { PATH: process.env.PATH, NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'error', WEB_DIST: '' },
        encoding: 'utf8',
        timeout: 50_000,
      });
      expect(run.status).toBe(78);
      expect(run.stderr).toContain('refuses to start in production');
      for (const name of ['OAUTH_CLIENT_SECRET', 'MINISTRY_KEY_FILE', 'MINISTRY_CERTIFICATE_FILE', 'TSA_URL', 'SMTP_URL', 'SMS_GATEWAY_URL']) expect(run.stderr).toContain(name);
      expect(existsSync(path.join(dataDir, 'postgres'))).toBe(false);
      expect(existsSync(path.join(dataDir, 'keys'))).toBe(false);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
