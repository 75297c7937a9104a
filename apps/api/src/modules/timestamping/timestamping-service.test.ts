// TimestampingService (ADR 0135) with TSA_URL: an RFC 3161 TSA over HTTP (a local stand-in speaking
// the real protocol, with its own CA) is asked once at set-up; its tokens' size sets the room
// reserved in each PDF, its certificates go into the DSS, and a diploma signed with the set-up is
// B-LTA with that TSA's time-stamps. Without TSA_URL, the local TSA and the CRL are made once.
import {
  createDevelopmentPki,
  createDevelopmentTsa,
  createDiplomaRenderer,
  createKeySigner,
  createLocalTimeStampAuthority,
  diplomeEtatTemplate,
  extendToLongTerm,
  preparePhoto,
  signPdf,
  verifyDocumentTimestamps,
  verifyPdfSignature,
  type LocalTimeStampAuthority,
} from '@sceau/pdf';
import { createTestPhoto, createTestSignatureImages, testCredentialJson, testFields, testOfflinePayload } from '@sceau/pdf/test-fixtures';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { loadMinistryKeys, type MinistryKeys } from '../keys/ministry-keys.ts';
import { TimestampingService, timestamperFor, validationData } from './timestamping-service.ts';

let dataDir: string;
let keys: MinistryKeys;
let server: Server;
let url: string;
let remote: LocalTimeStampAuthority;
let remoteTsaCertificate: Uint8Array;
let requests = 0;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sceau-timestamping-'));
  keys = await loadMinistryKeys(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }).keys, pino({ level: 'silent' }));
  // Another provider's TSA: its own CA, nothing shared with the platform's development PKI.
  const provider = await createDevelopmentPki({ organization: 'Trust Provider' });
  const tsa = await createDevelopmentTsa({ ca: { certificatePem: provider.caCertificatePem, privateKeyPem: provider.caPrivateKeyPem }, organization: 'Trust Provider' });
  remoteTsaCertificate = tsa.certificateDer;
  remote = createLocalTimeStampAuthority({ signer: createKeySigner({ privateKey: tsa.privateKeyPem, certificateChainDer: tsa.certificateChainDer }) });
  server = createServer(async (request, response) => {
    requests++;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    response.writeHead(200, { 'content-type': 'application/timestamp-reply' });
    response.end(await remote.respond(Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsr`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('with TSA_URL', () => {
  it('asks the TSA once at set-up, reserves room from its tokens, puts its certificate in the DSS, and makes B-LTA diplomas with it', { timeout: 60_000 }, async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, TSA_URL: url });
    const service = new TimestampingService(config, keys);
    const before = requests;
    const setup = await service.setup();
    expect(requests).toBe(before + 1);
    expect(setup.tsa).toMatchObject({ kind: 'http', url });
    if (setup.tsa.kind !== 'http') throw new Error('unreachable');
    expect(setup.tsa.maxTokenBytes).toBeLessThan(config.timestamping.maxTokenBytes);
    expect(setup.tsa.maxTokenBytes).toBeGreaterThan(remote.maxTokenLength);
    expect(setup.validation.certificates.some((c) => Buffer.from(c).equals(Buffer.from(remoteTsaCertificate)))).toBe(true);
    expect(setup.validation.crls).toHaveLength(1);
    // The platform runs no TSA of its own then: /tsa has nothing to serve.
    expect(await service.localAuthority()).toBeNull();
    expect(existsSync(path.join(dataDir, 'keys', 'tsa'))).toBe(false);

    const renderer = await createDiplomaRenderer({ template: diplomeEtatTemplate, signatureImages: await createTestSignatureImages() });
    const photo = await preparePhoto(await createTestPhoto(), renderer.template.photo);
    const unsigned = await renderer.render(testFields(), photo, { verifyUrl: 'https://x/verify/1', offlinePayload: testOfflinePayload() }, testCredentialJson(testFields()));
    const signer = createKeySigner({ privateKey: keys.active.privateKey!, certificateChainDer: keys.active.certificateChainDer });
    const timestamper = timestamperFor(setup.tsa);
    const pdf = await extendToLongTerm(await signPdf(unsigned, signer, { timestamper }), validationData(setup), timestamper);
    expect(requests).toBe(before + 3);
    const signature = verifyPdfSignature(pdf);
    expect(Buffer.from(signature.signatureTimestamp!.tsaCertificateDer).equals(Buffer.from(remoteTsaCertificate))).toBe(true);
    expect(verifyDocumentTimestamps(pdf)).toMatchObject([{ ok: true, coveredLength: pdf.length }]);
  });

  it('fails the set-up, naming the TSA, when it does not answer', async () => {
    const service = new TimestampingService(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, TSA_URL: 'http://127.0.0.1:1/tsr', TSA_TIMEOUT_MS: '500' }), keys);
    await expect(service.setup()).rejects.toThrow(/http:\/\/127\.0\.0\.1:1\/tsr is unreachable/);
  });
});

describe('without TSA_URL', () => {
  it('makes the local TSA and the CRL once, and keeps them across instances', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: 'https://diplomes.example.cd' });
    const first = await new TimestampingService(config, keys).setup();
    const second = await new TimestampingService(config, keys).setup();
    expect(second.id).toBe(first.id);
    if (first.tsa.kind !== 'local') throw new Error('expected the local TSA');
    const certificate = new X509Certificate(first.tsa.certificateChainDer[0]!);
    expect(certificate.issuer).toContain('Sceau Development CA');
    expect(certificate.toLegacyObject().ext_key_usage).toEqual(['1.3.6.1.5.5.7.3.8']);
    expect(await readFile(path.join(dataDir, 'keys', 'crl', 'ca.crl'))).toHaveLength(first.validation.crls[0]!.length);
    // The DSS: the ministry's chain and the TSA's certificate, each once.
    expect(first.validation.certificates).toHaveLength(3);
  });
});
