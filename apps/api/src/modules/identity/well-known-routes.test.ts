import { connectChain, createRegistry } from '@sceau/chain';
import { createDevelopmentPki } from '@sceau/pdf';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { createServices } from '../../services.ts';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import type { OpenChain } from '../chain/open-chain.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';
import { TimestampingService } from '../timestamping/timestamping-service.ts';
import { issuerDocument } from './well-known-routes.ts';
import { runCli } from '@sceau/verifier/cli-run';
import { parseTrustList, trustListEntry } from '@sceau/verifier/trust-list';
import { writeDevelopmentTrustList } from './development-trust-list.ts';

let ctx: ChainTestContext;
let chain: OpenChain;
let app: App;
let keys: MinistryKeys;

beforeAll(async () => {
  ctx = await createChainTestApp({ PUBLIC_URL: 'https://diplomes.example.cd' });
  ({ chain, keys } = ctx);
  app = await buildApp({ db: ctx.db, config: ctx.config, services: createServices(ctx.db, ctx.config, { identity: { keys, chain } }) });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await ctx?.close();
});

describe('the published identity of the issuer', () => {
  it('names the registry contract, which is deployed on the chain, and the key set', async () => {
    const res = await app.inject({ method: 'GET', url: '/.well-known/sceau-issuer.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const doc = res.json();
    expect(doc).toMatchObject({
      id: 'minepst.gouv.cd',
      jwks_uri: 'https://diplomes.example.cd/.well-known/jwks.json',
      registry: { chain_id: 72328, address: chain.address },
    });
    // Anyone can read the registry at that address: it is really there.
    const reader = createRegistry(connectChain({ rpcUrl: chain.connection.rpcUrl, chainId: doc.registry.chain_id }), doc.registry.address);
    expect(await reader.isIssued(`0x${'ab'.repeat(32)}`)).toBe(false);

    const jwks = (await app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toContain(doc.active_key);
  });

  it('names the issuer as configured, in French and English, with its contact (ADR 0129)', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/.well-known/sceau-issuer.json' })).json();
    expect(doc).toMatchObject({
      name: ctx.config.issuer.name,
      name_en: ctx.config.issuer.nameEn,
      short_name: ctx.config.issuer.shortName,
      contact: { email: ctx.config.issuer.email },
    });
    expect(doc.name).toBe("Ministère de l'Éducation nationale et Nouvelle Citoyenneté");
  });

  it('keeps the same registry across a restart of the chain', async () => {
    const address = chain.address;
    chain = await ctx.restartChain();
    expect(chain.address).toBe(address);
    expect(chain.action).toBe('existing');
  });
});

describe('the time-stamping authorities verifiers trust (ADR 0148)', () => {
  it("publishes the platform's own TSA root by default, which a trust list entry keeps", async () => {
    const doc = (await app.inject({ method: 'GET', url: '/.well-known/sceau-issuer.json' })).json();
    const chainDer = await new TimestampingService(ctx.config, keys).tsaCertificateChainDer();
    expect(doc.timestamp_authorities).toEqual([Buffer.from(chainDer!.at(-1)!).toString('base64')]);
    const jwks = (await app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    expect(trustListEntry(doc, jwks).timestamp_authorities).toEqual(doc.timestamp_authorities);
  });

  it('with TSA_TRUST_ANCHORS, publishes its certificates; a file without any is refused, naming the setting', async () => {
    const root = await createDevelopmentPki({ organization: 'Trust Provider TSA Root' });
    const file = path.join(ctx.dataDir, 'tsa-root.pem');
    await writeFile(file, root.caCertificatePem);
    const config = { ...ctx.config, timestamping: { ...ctx.config.timestamping, trustAnchorsFile: file } };
    const anchors = await new TimestampingService(config, keys).trustedAuthoritiesDer();
    expect(anchors.map((der) => Buffer.from(der).toString('base64'))).toEqual([Buffer.from(root.caCertificateDer).toString('base64')]);
    expect(issuerDocument(config, keys, chain, anchors).timestamp_authorities).toEqual([Buffer.from(root.caCertificateDer).toString('base64')]);

    const empty = path.join(ctx.dataDir, 'empty.pem');
    await writeFile(empty, 'not a certificate\n');
    const broken = { ...ctx.config, timestamping: { ...ctx.config.timestamping, trustAnchorsFile: empty } };
    await expect(new TimestampingService(broken, keys).trustedAuthoritiesDer()).rejects.toThrow(/TSA_TRUST_ANCHORS .* must hold 1 to 10 PEM certificates/);
  });
});

describe('the development trust list (ADR 0133)', () => {
  it('is written from the published documents, marked development, and the independent verifier pins it with no option', async () => {
    const file = await writeDevelopmentTrustList(ctx.config, keys, chain);
    expect(file).toBe(path.join(ctx.dataDir, 'trust-list.json'));
    const list = parseTrustList(await readFile(file!, 'utf8'));
    const published = (await app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    expect(list.issuers).toEqual([
      expect.objectContaining({
        id: ctx.config.issuer.id,
        name: ctx.config.issuer.name,
        development: true,
        registry: expect.objectContaining({ chain_id: chain.chainId, address: chain.address.toLowerCase() }),
        jwks: { keys: published.keys.map((k: Record<string, unknown>) => expect.objectContaining({ kid: k.kid, x: k.x, y: k.y })) },
      }),
    ]);

    // The verifier finds it under DATA_DIR: this issuer is pinned (a QR it did not sign is refused, naming it).
    let out = '';
    const code = await runCli({
      argv: ['SC1:NOTOURS'],
      env: { DATA_DIR: ctx.dataDir },
      stdout: (t) => (out += t),
      stderr: (t) => (out += t),
      fetch: (async () => Response.error()) as typeof fetch,
    });
    expect(out).toContain(`Issuer expected: ${ctx.config.issuer.name} (${ctx.config.issuer.id})`);
    expect(code).toBe(1);
  });

  it('is not written with configured keys', async () => {
    expect(await writeDevelopmentTrustList(ctx.config, { ...keys, mode: 'configured' }, chain)).toBeNull();
  });
});
