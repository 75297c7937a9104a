/**
 * Rotates the development signing key (ADR 0136): a new key and certificate from the same
 * development CA become active; the previous keys stay published as retired (from now on nothing
 * they sign is valid), so what they signed keeps verifying. The retired private key leaves the key
 * folder: overwritten and deleted, or moved to an offline archive folder with --archive.
 *   npm run keys:rotate [-- --archive /media/offline/sceau-keys]
 * With configured keys (MINISTRY_KEY_FILE…) rotate by configuring the new files; with a token
 * (KEYS_PKCS11_*) by `npm run keys:pkcs11 -- generate` (docs/deployment.md, section 11). Restart the
 * platform afterwards.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { rotateDevelopmentKey } from '../modules/keys/ministry-keys.ts';

const { values } = parseArgs({ options: { archive: { type: 'string' } } });
const config = loadConfig();
try {
  const rotation = await rotateDevelopmentKey(config.keys, values.archive ? { archiveDir: values.archive } : {});
  const where =
    'archivedTo' in rotation.retiredPrivateKey
      ? `moved to ${rotation.retiredPrivateKey.archivedTo} (keep it offline)`
      : 'destroyed' in rotation.retiredPrivateKey
        ? 'overwritten and deleted'
        : 'left in the token';
  console.log(`Signing key ${rotation.retired} retired now (still published, with its retirement time); its private key was ${where}.`);
  console.log(`New active key ${rotation.active}. Restart the platform to use it.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
