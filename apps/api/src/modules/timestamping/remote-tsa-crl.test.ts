// The remote TSA's own CRL in the DSS (ADR 0135, 0148): fetched from its certificate's CRL
// distribution point, bounded (size, time), kept only when its issuer's signature verifies, and
// put beside the CA's CRL in every PDF's DSS; a CRL that cannot be had is a warning, not a stop.
import {
  createCertificateRevocationList,
  createDevelopmentPki,
  createDevelopmentTsa,
  createKeySigner,
  createLocalTimeStampAuthority,
  type CaMaterial,
  type DevelopmentTsa,
} from '@sceau/pdf';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { loadMinistryKeys, type MinistryKeys } from '../keys/ministry-keys.ts';
import { fetchTsaCrls } from './remote-tsa-crl.ts';
import { TimestampingService } from './timestamping-service.ts';

let server: Server;
let base: string;
let ca: CaMaterial;
let tsa: DevelopmentTsa;
let crl: Uint8Array;
let foreignCrl: Uint8Array;
let dataDir: string;
let keys: MinistryKeys;
const hits = new Map<string, number>();

beforeAll(async () => {
  const provider = await createDevelopmentPki({ organization: 'Trust Provider' });
  ca = { certificatePem: provider.caCertificatePem, privateKeyPem: provider.caPrivateKeyPem };
  const stranger = await createDevelopmentPki({ organization: 'Trust Provider' });
  const now = new Date();
  const window = { revoked: [], thisUpdate: new Date(now.getTime() - 60_000), nextUpdate: new Date(now.getTime() + 7 * 86_400_000), crlNumber: 1 };
  crl = await createCertificateRevocationList({ ca, ...window });
  // Same issuer name, another key: a CRL an attacker on the path could send.
  foreignCrl = await createCertificateRevocationList({ ca: { certificatePem: stranger.caCertificatePem, privateKeyPem: stranger.caPrivateKeyPem }, ...window });
  server = createServer(async (request, response) => {
    const route = request.url ?? '';
    hits.set(route, (hits.get(route) ?? 0) + 1);
    if (route === '/tsa.crl') return response.end(Buffer.from(crl));
    if (route === '/forged.crl') return response.end(Buffer.from(foreignCrl));
    if (route === '/huge.crl') return response.end(Buffer.alloc(2 * 1024 * 1024));
    if (route === '/slow.crl') return; // never answers
    if (route === '/tsr') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const authority = createLocalTimeStampAuthority({ signer: createKeySigner({ privateKey: tsa.privateKeyPem, certificateChainDer: tsa.certificateChainDer }) });
      response.writeHead(200, { 'content-type': 'application/timestamp-reply' });
      return response.end(await authority.respond(Buffer.concat(chunks)));
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tsa = await createDevelopmentTsa({ ca, organization: 'Trust Provider', crlUrl: `${base}/tsa.crl` });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sceau-remote-crl-'));
  keys = await loadMinistryKeys(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }).keys, pino({ level: 'silent' }));
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const tsaAt = (crlPath: string) => createDevelopmentTsa({ ca, organization: 'Trust Provider', crlUrl: `${base}${crlPath}` });

describe("a remote TSA's CRL", () => {
  it('is fetched from its certificate, checked against its issuer, and kept', async () => {
    const { crls, problems } = await fetchTsaCrls(tsa.certificateChainDer, [], { timeoutMs: 2000 });
    expect(problems).toEqual([]);
    expect(crls).toHaveLength(1);
    expect(Buffer.from(crls[0]!.der).equals(Buffer.from(crl))).toBe(true);
    expect(crls[0]!.nextUpdate!.getTime()).toBeGreaterThan(Date.now());
  });

  it('refuses a CRL another key signed, one over 1 MB, one that does not come within the time limit, and an issuer it cannot find', async () => {
    const forged = await fetchTsaCrls((await tsaAt('/forged.crl')).certificateChainDer, [], { timeoutMs: 2000 });
    expect(forged.crls).toEqual([]);
    expect(forged.problems[0]).toMatch(/signature does not verify/);

    const huge = await fetchTsaCrls((await tsaAt('/huge.crl')).certificateChainDer, [], { timeoutMs: 2000 });
    expect(huge.problems[0]).toMatch(/larger than 1048576 bytes/);

    const started = Date.now();
    const slow = await fetchTsaCrls((await tsaAt('/slow.crl')).certificateChainDer, [], { timeoutMs: 300 });
    expect(slow.crls).toEqual([]);
    expect(slow.problems).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2000);

    // The leaf alone (its CA neither in the token nor in TSA_TRUST_ANCHORS): nothing fetched.
    const before = hits.get('/tsa.crl') ?? 0;
    const orphan = await fetchTsaCrls([tsa.certificateChainDer[0]!], [], { timeoutMs: 2000 });
    expect(orphan.problems[0]).toMatch(/neither in the TSA's chain nor in TSA_TRUST_ANCHORS/);
    expect(hits.get('/tsa.crl') ?? 0).toBe(before);
    // With its CA given as a trust anchor, it is.
    const anchored = await fetchTsaCrls([tsa.certificateChainDer[0]!], [tsa.certificateChainDer[1]!], { timeoutMs: 2000 });
    expect(anchored.crls).toHaveLength(1);
  });

  it("goes into the DSS with TSA_URL (its root in TSA_TRUST_ANCHORS), beside the CA's CRL, fetched once for several set-ups", async () => {
    const warnings: string[] = [];
    const log = { info: () => {}, warn: (_: unknown, message?: string) => void warnings.push(String(message)) } as never;
    // The token carries the TSA's certificate alone: without its root, the CRL cannot be checked, and issuing goes on without it.
    const bare = new TimestampingService(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, TSA_URL: `${base}/tsr` }), keys, log);
    expect((await bare.setup()).validation.crls).toHaveLength(1);
    expect(warnings.some((w) => /the CRL of .* neither in the TSA's chain nor in TSA_TRUST_ANCHORS; the PDFs' DSS goes without it/.test(w))).toBe(true);

    const anchors = path.join(dataDir, 'tsa-root.pem');
    await writeFile(anchors, ca.certificatePem);
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, TSA_URL: `${base}/tsr`, TSA_TRUST_ANCHORS: anchors });
    let clock = Date.now();
    warnings.length = 0;
    const service = new TimestampingService(config, keys, log, () => new Date(clock));
    const before = hits.get('/tsa.crl') ?? 0;
    const setup = await service.setup();
    expect(warnings).toEqual([]);
    expect(setup.validation.crls).toHaveLength(2);
    expect(setup.validation.crls.some((c) => Buffer.from(c).equals(Buffer.from(crl)))).toBe(true);
    clock += 5 * 60_000;
    await service.setup();
    expect(hits.get('/tsa.crl')! - before).toBe(1);
  });

  it('TSA_TRUST_ANCHORS that the TSA does not chain to stops issuing, naming both', async () => {
    const other = await createDevelopmentPki({ organization: 'Another Provider' });
    const anchors = path.join(dataDir, 'other-root.pem');
    await writeFile(anchors, other.caCertificatePem);
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, TSA_URL: `${base}/tsr`, TSA_TRUST_ANCHORS: anchors });
    await expect(new TimestampingService(config, keys).setup()).rejects.toThrow(/does not chain to a certificate of TSA_TRUST_ANCHORS/);
  });
});
