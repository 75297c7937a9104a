/**
 * Rotates the development signing key: a new key and certificate from the same development CA
 * become active; the previous keys stay published, so what they signed keeps verifying.
 *   npm run keys:rotate
 * With configured keys (MINISTRY_KEY_FILE…), rotate by configuring the new files and listing the old
 * certificates in MINISTRY_RETIRED_CERTIFICATE_FILES. Restart the platform afterwards.
 */
import { loadConfig } from '../config.ts';
import { loadMinistryKeys, rotateDevelopmentKey } from '../modules/keys/ministry-keys.ts';

const config = loadConfig();
const quiet = { info: () => {}, warn: () => {} };
try {
  const before = await loadMinistryKeys(config.keys, quiet);
  const kid = await rotateDevelopmentKey(config.keys);
  console.log(`Signing key ${before.active.kid} retired (still published); new active key ${kid}. Restart the platform to use it.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
