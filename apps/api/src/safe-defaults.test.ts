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
  // A file key, accepted explicitly (ADR 0136); the tests below check the token settings.
  KEYS_ALLOW_FILE_KEY: 'true',
  SMTP_URL: 'smtp://relay.ministry.example:587',
  SMS_GATEWAY_URL: 'https://sms.ministry.example/send',
  TSA_URL: 'https://tsa.trust-provider.example/tsr',
  TSA_TRUST_ANCHORS: '/etc/sceau/tsa-root.pem',
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
    // A remote TSA whose root no verifier is given dates nothing (ADR 0148).
    expect(productionProblems(loadConfig({ ...safe, TSA_TRUST_ANCHORS: '' })).map((p) => p.split(' ')[0])).toEqual(['TSA_TRUST_ANCHORS']);
    // Development keeps its conveniences.
    expect(productionProblems(loadConfig({}))).toEqual([]);
  });

  it('wants the ministry key in a token (PKCS#11), a file key only when explicitly allowed (ADR 0136)', () => {
    const { MINISTRY_KEY_FILE: _k, KEYS_ALLOW_FILE_KEY: _a, ...noKey } = safe;
    const token = {
      KEYS_PKCS11_MODULE: '/usr/lib/softhsm/libsofthsm2.so',
      KEYS_PKCS11_TOKEN_LABEL: 'ministere',
      KEYS_PKCS11_PIN_FILE: '/run/secrets/pin',
      KEYS_PKCS11_KEY_LABEL: 'sceau-2026',
    };
    expect(productionProblems(loadConfig({ ...noKey, ...token }))).toEqual([]);
    const { KEYS_ALLOW_FILE_KEY: _b, ...fileKey } = safe;
    const problems = productionProblems(loadConfig(fileKey));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^MINISTRY_KEY_FILE holds the private key in a file.*KEYS_ALLOW_FILE_KEY=true/);
    expect(productionProblems(loadConfig(noKey))[0]).toMatch(/^Neither KEYS_PKCS11_MODULE nor MINISTRY_KEY_FILE/);
    // Token settings are checked together, in every mode.
    expect(() => loadConfig({ KEYS_PKCS11_MODULE: '/usr/lib/softhsm/libsofthsm2.so' })).toThrow(
      /KEYS_PKCS11_TOKEN_LABEL or KEYS_PKCS11_SLOT[\s\S]*KEYS_PKCS11_PIN or KEYS_PKCS11_PIN_FILE[\s\S]*KEYS_PKCS11_KEY_LABEL or KEYS_PKCS11_KEY_ID/,
    );
    expect(() => loadConfig({ ...token, KEYS_PKCS11_PIN: '1234' })).toThrow(/one of the two/);
    expect(() => loadConfig({ ...token, MINISTRY_KEY_FILE: '/etc/sceau/k.pem' })).toThrow(/MINISTRY_KEY_FILE: not with KEYS_PKCS11_MODULE/);
    expect(() => loadConfig({ KEYS_PKCS11_KEY_LABEL: 'x' })).toThrow(/KEYS_PKCS11_MODULE: required/);
    expect(() => loadConfig({ ...token, KEYS_PKCS11_KEY_ID: 'xyz' })).toThrow(/hexadecimal/);
    expect(() => loadConfig({ ...token, KEYS_PKCS11_SESSIONS: '99' })).toThrow(/KEYS_PKCS11_SESSIONS/);
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
