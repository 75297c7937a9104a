/**
 * Revokes a certificate of the development CA and issues its CRL again at once (ADR 0135): the
 * CRL published at PUBLIC_URL/pki/ca.crl and written into each new PDF's DSS then names it.
 *   npm run pki:revoke -- <serial (hex)> [--reason keyCompromise|superseded|cessationOfOperation|…] [--at 2026-11-27T10:00:00Z]
 * `--at` backdates the revocation (a compromise found later). With configured keys the ministry's
 * CA revokes: publish its new CRL through MINISTRY_CRL_FILE. A running platform serves the new
 * CRL within a minute.
 */
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import type { RevokedCertificate } from '@sceau/pdf';
import { loadConfig } from '../config.ts';
import { loadMinistryKeys } from '../modules/keys/ministry-keys.ts';
import { TimestampingService } from '../modules/timestamping/timestamping-service.ts';

const reasons = ['unspecified', 'keyCompromise', 'cACompromise', 'affiliationChanged', 'superseded', 'cessationOfOperation'] as const;

const { values, positionals } = parseArgs({ allowPositionals: true, options: { reason: { type: 'string' }, at: { type: 'string' } } });
const config = loadConfig();
try {
  const serial = positionals[0];
  if (!serial) throw new Error('give the serial number (hexadecimal) of the certificate to revoke, e.g. from `openssl x509 -noout -serial`');
  const reason = (values.reason ?? 'keyCompromise') as RevokedCertificate['reason'];
  if (!reasons.includes(reason as (typeof reasons)[number])) throw new Error(`--reason: one of ${reasons.join(', ')}`);
  const at = values.at ? new Date(values.at) : new Date();
  if (Number.isNaN(at.getTime())) throw new Error('--at: an ISO 8601 date and time, e.g. 2026-11-27T10:00:00Z');
  const keys = await loadMinistryKeys(config.keys, pino({ level: 'warn' }));
  const service = new TimestampingService(config, keys);
  await service.revoke(serial.replace(/^serial=/i, ''), reason, at);
  const crl = await readFile(path.join(config.keys.dir, 'crl', 'ca.crl'));
  const ca = service.caCertificateDer();
  console.log(
    `Certificate ${serial} revoked (${reason}, ${at.toISOString()}); CRL issued again (${crl.length} bytes) by ${ca ? new X509Certificate(ca).subject.replace(/\n/g, ', ') : 'the CA'}.`,
  );
  console.log(`Published at ${service.crlUrl}. Flag the diplomas signed after the compromise by revoking them (docs/deployment.md).`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
