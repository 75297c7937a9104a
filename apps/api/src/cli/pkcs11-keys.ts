/**
 * The ministry key in its token (ADR 0136, docs/deployment.md section 11), with the token of
 * KEYS_PKCS11_MODULE, KEYS_PKCS11_TOKEN_LABEL (or _SLOT) and KEYS_PKCS11_PIN (or _PIN_FILE):
 *   npm run keys:pkcs11 -- generate --label sceau-2027 --id 02 --subject "CN=Sceau 2027, O=…, C=CD" --request sceau-2027.csr
 *     a new P-256 key generated inside the token (not extractable) and its certificate request for
 *     the CA; --development-chain <file> instead has the development CA certify it (development only)
 *   npm run keys:pkcs11 -- destroy --label sceau-2026 --id 01
 *     destroys a retired key's private half in the token (after the switch to the new key); its
 *     certificate stays published
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { createCertificateRequest } from '../modules/keys/certificates.ts';
import { generateDevelopmentTokenKey } from '../modules/keys/ministry-keys.ts';
import { destroyPkcs11PrivateKey, generatePkcs11Key, signOnceWithPkcs11Key } from '../modules/keys/pkcs11.ts';

const usage =
  'Usage: npm run keys:pkcs11 -- generate --label <label> --id <hex> (--subject "<DN>" --request <file.csr> | --development-chain <file.pem>)\n' +
  '       npm run keys:pkcs11 -- destroy --label <label> [--id <hex>]';
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { label: { type: 'string' }, id: { type: 'string' }, subject: { type: 'string' }, request: { type: 'string' }, 'development-chain': { type: 'string' } },
});
const config = loadConfig();
const token = config.keys.pkcs11;
if (!token) {
  console.error('KEYS_PKCS11_MODULE and the token settings (KEYS_PKCS11_*) are not set: see docs/deployment.md, section 11.');
  process.exit(2);
}
if (!values.label || (values.id && !/^(?:[0-9a-fA-F]{2})+$/.test(values.id))) {
  console.error(usage);
  process.exit(2);
}
const key = { ...token, keyLabel: values.label, keyId: values.id ?? null };
try {
  switch (positionals[0]) {
    case 'generate': {
      if (!values.id || (!values['development-chain'] && !(values.subject && values.request))) {
        console.error(usage);
        process.exit(2);
      }
      if (values['development-chain']) {
        if (config.env === 'production') throw new Error('the development CA does not certify keys in production: ask the ministry CA (--subject, --request)');
        const kid = await generateDevelopmentTokenKey(config.keys, key, values['development-chain']);
        console.log(`Key ${kid} generated in the token as "${values.label}" (id ${values.id}); its development chain is in ${values['development-chain']}.`);
      } else {
        const { publicKey } = await generatePkcs11Key(key);
        // The request is signed by the new key, in the token (its certificate does not exist yet).
        const request = await createCertificateRequest({ publicKey, subject: values.subject!, signRaw: (data) => signOnceWithPkcs11Key(key, data) });
        await writeFile(values.request!, request);
        console.log(`Key generated in the token as "${values.label}" (id ${values.id}); its certificate request is in ${values.request}: send it to the CA.`);
      }
      console.log(
        'Then, between sessions: set KEYS_PKCS11_KEY_LABEL/KEYS_PKCS11_KEY_ID to the new key and MINISTRY_CERTIFICATE_FILE to its chain (or store the chain in the token) on every process, and restart them together: the previous key is retired at that start.',
      );
      break;
    }
    case 'destroy': {
      if ((token.keyLabel && token.keyLabel === values.label) || (token.keyId && values.id && token.keyId.toLowerCase() === values.id.toLowerCase())) {
        throw new Error(`"${values.label}" is the configured signing key (KEYS_PKCS11_KEY_LABEL/ID): switch to the new key first`);
      }
      const destroyed = await destroyPkcs11PrivateKey(key);
      console.log(
        destroyed
          ? `The private key "${values.label}" was destroyed in the token; its certificate stays published.`
          : `No private key "${values.label}" in the token (already destroyed?).`,
      );
      break;
    }
    default:
      console.error(usage);
      process.exitCode = 2;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
