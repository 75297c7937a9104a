/**
 * Declares a retired ministry key compromised from a given time (ADR 0136, docs/security.md "Key
 * compromise"): its retirement time is set back to that time and its compromise time published
 * (compromised_at), so every verifier refuses what it signed from then on and says why
 * (key_compromised / pdf_key_compromised, ADR 0148); its certificate is recorded as revoked (keyCompromise) for the CA's CRL; and
 * the diplomas the platform signed with it since then are listed, to be issued again.
 *   npm run keys:compromise -- --kid <key id> --since 2026-11-20T08:00:00Z [--out affected.json]
 * The active key cannot be declared compromised: rotate first. Restart every process afterwards.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/open-database.ts';
import { diplomasSignedSince } from '../modules/keys/compromise.ts';
import { loadMinistryKeys, markKeyCompromised } from '../modules/keys/ministry-keys.ts';
import { TimestampingService } from '../modules/timestamping/timestamping-service.ts';

const { values } = parseArgs({ options: { kid: { type: 'string' }, since: { type: 'string' }, out: { type: 'string' } } });
if (!values.kid || !values.since || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(values.since)) {
  console.error('Usage: npm run keys:compromise -- --kid <key id> --since <ISO 8601 time with its zone, e.g. 2026-11-20T08:00:00Z> [--out affected.json]');
  process.exit(2);
}
const config = loadConfig();
try {
  const since = new Date(values.since);
  const marked = await markKeyCompromised(config.keys, values.kid, since);
  console.log(`Key ${marked.kid} declared compromised: retired from ${marked.retiredAt}; certificate serial ${marked.serialNumber} recorded as revoked (keyCompromise).`);
  if (!config.keys.pkcs11 && !config.keys.keyFile && !config.keys.certificateFile) {
    // Development: the platform's CA is the development CA, whose CRL the platform issues (ADR 0135).
    const keys = await loadMinistryKeys(config.keys, { info: () => {}, warn: () => {} });
    await new TimestampingService(config, keys).revoke(marked.serialNumber, 'keyCompromise', new Date(marked.retiredAt));
    console.log("The development CA's CRL (/pki/ca.crl) was issued again with it.");
  } else {
    console.log(
      `Ask the ministry's CA to revoke certificate ${marked.serialNumber} (reason keyCompromise, invalidity date ${marked.retiredAt}), then set MINISTRY_CRL_FILE to the CRL it publishes.`,
    );
  }
  console.log('Restart every process: the published key set then carries the new retirement time.');
  const database = await openDatabase(config, pino({ level: 'warn' }));
  try {
    const affected = await diplomasSignedSince(database.db, marked.kid, new Date(marked.retiredAt));
    console.log(`${affected.length} diploma(s) signed with this key since ${marked.retiredAt}, refused from now on: issue them again.`);
    // ADR 0148: flagged, not only listed. The key set publishes compromised_at once restarted.
    console.log(
      'Once every process has restarted, their public verification (page, API, independent verifier) says "signed with a key the ministry declared compromised, after the compromise: to be issued again" (key_compromised, pdf_key_compromised).',
    );
    for (const d of affected.slice(0, 50)) console.log(`  ${d.id}  batch ${d.generationId}  candidate ${d.candidateCode}  issued ${d.issuedAt}${d.revoked ? '  (revoked)' : ''}`);
    if (affected.length > 50) console.log(`  … and ${affected.length - 50} more${values.out ? '' : ' (write them all with --out <file>)'}`);
    if (values.out) {
      await writeFile(values.out, `${JSON.stringify({ kid: marked.kid, since: marked.retiredAt, diplomas: affected }, null, 2)}\n`);
      console.log(`All of them written to ${values.out}.`);
    }
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
