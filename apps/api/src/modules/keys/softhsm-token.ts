// Tests only: a throwaway SoftHSM2 token (Debian's softhsm2) under the OS temporary folder, with its
// own configuration file, so that the PKCS#11 signer is tested against a real PKCS#11 library.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Pkcs11Config } from './pkcs11.ts';

export const SOFTHSM_MODULE = '/usr/lib/softhsm/libsofthsm2.so';

/**
 * Whether SoftHSM2 is here; in CI (CI=true, where .ci/run installs it) its absence is a failure,
 * not a reason to skip.
 */
export function softHsmAvailable(): boolean {
  const here = existsSync(SOFTHSM_MODULE) && spawnSync('softhsm2-util', ['--version']).status === 0;
  if (!here && process.env.CI) throw new Error('softhsm2 is missing in CI: .ci/run installs it (apt-get install softhsm2)');
  return here;
}

export interface TestToken {
  dir: string;
  config: Pkcs11Config;
  remove(): Promise<void>;
}

/**
 * A new token labelled `label` with user PIN `pin`. SoftHSM reads SOFTHSM2_CONF when the library is
 * initialised: set here, before any test opens it, and pointing at this test file's own folder.
 */
export async function createTestToken(label = 'sceau-test', pin = '246810'): Promise<TestToken> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sceau-softhsm-'));
  const tokens = path.join(dir, 'tokens');
  await mkdir(tokens);
  const conf = path.join(dir, 'softhsm2.conf');
  await writeFile(conf, `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n`);
  process.env.SOFTHSM2_CONF = conf;
  const init = spawnSync('softhsm2-util', ['--init-token', '--free', '--label', label, '--so-pin', '13579111', '--pin', pin], {
    env: { ...process.env, SOFTHSM2_CONF: conf },
    encoding: 'utf8',
  });
  if (init.status !== 0) throw new Error(`softhsm2-util --init-token failed: ${init.stderr || init.stdout}`);
  return {
    dir,
    config: { module: SOFTHSM_MODULE, tokenLabel: label, slot: null, pin, pinFile: null, keyLabel: null, keyId: null, sessions: 2 },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
