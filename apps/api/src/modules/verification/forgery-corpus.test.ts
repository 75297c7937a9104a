// The forgery corpus on the platform's own routes (issues 16 and 17; ADR 0135–0138, 0144, 0145,
// 0148). A genuine diploma is issued by the platform (the demo batch: rendered, signed, PAdES
// B-LTA, anchored on a local Anvil), with its SD-JWT VC and W3C VC from the platform's services;
// each forgery built from it is sent through every route that accepts its form:
// - the upload of /verification (`POST /api/generations/verify`: a PDF, a credential JSON, an
//   SD-JWT VC, a VC, a file holding a QR text) and the QR/link field (`cert_url`);
// - `GET /api/verify/{id}` where the forgery is of a diploma's state (revoked diploma or batch);
// - the independent CLI (`runCli`) with no option: its default trust list, here the one the
//   development platform writes at its start (DATA_DIR/trust-list.json), the platform's public
//   endpoints reached through a stand-in for fetch.
// Each must be refused (never `authentic`); "could not check" (`incomplete`) only where ADR 0148
// says a verifier without the issuer's record cannot date a retired key's signature, and then its
// check is never `passed`. The engine's own corpus: packages/verifier/src/forgery-corpus.test.ts.
import { createHmac, generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { qrFieldsFromDocument, type CredentialDocument } from '@sceau/credential';
import { addValidationData, createCertificateRevocationList, IncrementalUpdate } from '@sceau/pdf';
import { issueDiplomaSdJwt, vctUrl } from '@sceau/sd-jwt';
import { buildDidDocument, createDocumentLoader, proofSigner, secureCredential, verificationMethodId } from '@sceau/vc';
import { runCli } from '@sceau/verifier/cli-run';
import { createMinistryKeys, createPdfFactory, signQr } from '@sceau/verifier/test-support';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import { buildApp, type App } from '../../app.ts';
import { diplomas, generations } from '../../db/schema.ts';
import { seedDemoBatch } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { writeDevelopmentTrustList } from '../identity/development-trust-list.ts';
import { loadMinistryKeys, rotateDevelopmentKey } from '../keys/ministry-keys.ts';

const PUBLIC_URL = 'https://diplomes.example.cd';
const REFUSED = ['altered', 'revoked', 'unknown', 'unpublished'];

let ctx: ChainTestContext;
let services: Services;
let app: App;
let rows: (typeof diplomas.$inferSelect)[];
let genuinePdf: Uint8Array;
let genuineDoc: CredentialDocument;
let forger: Awaited<ReturnType<typeof createMinistryKeys>>;

beforeAll(async () => {
  ctx = await createChainTestApp({ PUBLIC_URL });
  services = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain: ctx.chain } });
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  const batchId = await seedDemoBatch(ctx.db, services.storage, services.issuing!);
  rows = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId)).orderBy(diplomas.id);
  genuinePdf = new Uint8Array((await services.storage.get(rows[0]!.pdfKey!))!);
  genuineDoc = rows[0]!.credential as unknown as CredentialDocument;
  // What the development platform writes at its start: the CLI's default trust list.
  await writeDevelopmentTrustList(ctx.config, ctx.keys, ctx.chain);
  // A look-alike: its own development CA and key, the ministry's very name (the organisation of its certificates).
  forger = await createMinistryKeys(ctx.config.keys.organization);
}, 180_000);
afterAll(async () => {
  await app?.close();
  await ctx?.close();
});

// ------------------------------------------------------------------------------ the paths

type Answer = { verdict: string; source?: string; checks: { name: string; status: string; code: string }[]; diploma?: unknown };

function upload(file: { data: Uint8Array | string; name: string } | null, url?: string) {
  const boundary = '----sceau-corpus';
  const chunks: Buffer[] = [];
  if (url !== undefined) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cert_url"\r\n\r\n${url}\r\n`));
  if (file) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cert_document"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    chunks.push(Buffer.from(file.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return app.inject({
    method: 'POST',
    url: '/api/generations/verify',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-locale': 'en' },
    payload: Buffer.concat(chunks),
  });
}

/** The platform's public endpoints, as the CLI reaches them over HTTPS. */
const platformFetch = (async (input: string | URL | Request) => {
  const url = new URL(String(input));
  if (url.origin !== PUBLIC_URL) throw new TypeError('fetch failed');
  const res = await app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  return new Response(res.statusCode === 304 ? null : res.rawPayload, { status: res.statusCode, headers: { 'content-type': String(res.headers['content-type'] ?? '') } });
}) as typeof fetch;

async function cli(content: Uint8Array | string, name: string) {
  const target = name === 'qr' ? (content as string) : path.join(ctx.dataDir, name);
  if (name !== 'qr') await fs.writeFile(target, content);
  let stdout = '';
  const code = await runCli({ argv: [target], env: { DATA_DIR: ctx.dataDir }, stdout: (t) => (stdout += t), stderr: (t) => (stdout += t), fetch: platformFetch });
  return { code, stdout };
}

function expectRefused(answer: Answer, allowed: string[], codes?: RegExp) {
  expect(allowed, JSON.stringify(answer.checks)).toContain(answer.verdict);
  if (answer.verdict === 'incomplete') expect(answer.checks.some((c) => c.status === 'not-checked')).toBe(true);
  if (codes)
    expect(
      answer.checks
        .filter((c) => c.status !== 'passed')
        .map((c) => `${c.name}:${c.code}`)
        .join(' '),
    ).toMatch(codes);
}

async function expectUploadRefused(file: { data: Uint8Array | string; name: string }, allowed = REFUSED, codes?: RegExp) {
  const res = await upload(file);
  if (res.statusCode !== 200) {
    // Refused before it was read (a bound): a clear client error, never a verdict.
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    return null;
  }
  const answer = res.json().data as Answer;
  expectRefused(answer, allowed, codes);
  return answer;
}

async function expectCliRefused(content: Uint8Array | string, name: string, incompleteAllowed = false) {
  const run = await cli(content, name);
  expect(run.stdout).not.toMatch(/Verdict: AUTHENTIC/);
  // Past the bound: refused before it is parsed, as a usage error (exit 2), never a verdict.
  if (content.length > 256 * 1024) {
    expect(run.stdout).toMatch(/larger than 256 KB/);
    expect(run.code).toBe(2);
    return;
  }
  expect(run.code, run.stdout).toBe(incompleteAllowed && run.code === 2 ? 2 : 1);
  if (run.code === 2) expect(run.stdout).toMatch(/could not check/);
}

// ------------------------------------------------------------------------------ PDF helpers

function objects(pdf: Uint8Array) {
  const update = new IncrementalUpdate(pdf);
  const catalog = update.dictionary(update.xref.root);
  const page = Number(/\/Kids\s*\[\s*(\d+) 0 R/.exec(update.dictionary(Number(/\/Pages (\d+) 0 R/.exec(catalog)![1])))![1]);
  const pageText = update.dictionary(page);
  const contents = Number(/\/Contents (\d+) 0 R/.exec(pageText)![1]);
  const filespec = Number(/\(credential\.json\) (\d+) 0 R/.exec(catalog)![1]);
  const embedded = Number(/\/EF << \/F (\d+) 0 R/.exec(update.dictionary(filespec))![1]);
  return { update, root: update.xref.root, catalog, page, pageText, contents, embedded };
}
function updated(pdf: Uint8Array, edit: (o: ReturnType<typeof objects>) => void): Uint8Array {
  const o = objects(pdf);
  edit(o);
  return o.update.finish().pdf;
}
const renamed = (doc: CredentialDocument) => {
  const copy = structuredClone(doc);
  copy.record.last_name = 'FAUSSAIRE';
  return copy;
};

interface Case {
  name: string;
  build: () => Promise<Uint8Array>;
  codes?: RegExp;
}

const pdfCases: Case[] = [
  {
    name: 'one byte of the signed revision flipped',
    codes: /pdf_signature:/,
    build: async () => {
      const bytes = Buffer.from(genuinePdf);
      bytes[2000] = bytes[2000]! ^ 0x01;
      return new Uint8Array(bytes);
    },
  },
  {
    name: "the page's visible text changed by an incremental update after the B-LTA layers",
    codes: /pdf_signature:pdf_changed_after_signing/,
    build: async () => updated(genuinePdf, (o) => o.update.setStream(o.contents, '', Buffer.from('BT /Fd0 40 Tf 100 300 Td (Mention: TRES BIEN) Tj ET'))),
  },
  {
    name: 'an update adding a FreeText annotation over the page',
    codes: /pdf_signature:pdf_changed_after_signing/,
    build: async () =>
      updated(genuinePdf, (o) => {
        const note = o.update.allocate();
        o.update.setObject(note, '<< /Type /Annot /Subtype /FreeText /Rect [100 100 400 200] /Contents (Pourcentage: 95) /DA (/Helv 20 Tf 0 g) >>');
        o.update.setObject(o.page, o.pageText.replace(/\/Annots \[([^\]]*)\]/, `/Annots [$1 ${note} 0 R]`));
      }),
  },
  {
    name: 'an update adding a filled text field with a visible widget',
    codes: /pdf_signature:pdf_changed_after_signing/,
    build: async () =>
      updated(genuinePdf, (o) => {
        const field = o.update.allocate();
        o.update.setObject(field, `<< /Type /Annot /Subtype /Widget /FT /Tx /T (mention) /V (Grande distinction) /Rect [50 50 300 80] /P ${o.page} 0 R >>`);
        o.update.setObject(o.root, o.catalog.replace(/\/Fields\s*\[([^\]]*)\]/, `/Fields [$1 ${field} 0 R]`));
        o.update.setObject(o.page, o.pageText.replace(/\/Annots \[([^\]]*)\]/, `/Annots [$1 ${field} 0 R]`));
      }),
  },
  {
    name: "the embedded credential replaced by an update (another candidate's)",
    codes: /pdf_signature:pdf_changed_after_signing/,
    build: async () => updated(genuinePdf, (o) => o.update.setStream(o.embedded, '/Type /EmbeddedFile', Buffer.from(JSON.stringify(rows[1]!.credential)))),
  },
  {
    name: 'a second credential attached by an update',
    codes: /pdf_signature:pdf_changed_after_signing/,
    build: async () =>
      updated(genuinePdf, (o) => {
        const [file, spec] = [o.update.allocate(), o.update.allocate()];
        o.update.setStream(file, '/Type /EmbeddedFile', Buffer.from(JSON.stringify(rows[1]!.credential)));
        o.update.setObject(spec, `<< /Type /Filespec /F (credential2.json) /UF (credential2.json) /EF << /F ${file} 0 R >> >>`);
        o.update.setObject(o.root, o.catalog.replace(/\(credential\.json\) (\d+) 0 R/, `(credential.json) $1 0 R (credential2.json) ${spec} 0 R`));
      }),
  },
  {
    name: 'a DSS update (a genuine-looking CRL) that also changes the page',
    codes: /pdf_signature:pdf_changed_after_signing/,
    build: async () => {
      const crl = await createCertificateRevocationList({ ca: forger.ca, revoked: [], thisUpdate: new Date(), nextUpdate: new Date(Date.now() + 86_400_000), crlNumber: 9 });
      return updated(addValidationData(genuinePdf, { certificates: [], crls: [crl] }), (o) => o.update.setStream(o.contents, '', Buffer.from('BT ET')));
    },
  },
  {
    name: "signed by a look-alike CA carrying the ministry's name, the genuine credential attached",
    codes: /pdf_signature:/,
    build: async () => (await createPdfFactory(forger.pdfSigner)).render(renamed(genuineDoc), rows[0]!.qrPayload, { attached: genuineDoc }),
  },
  {
    name: "another diploma's QR payload printed on a PDF signed by the ministry's key",
    codes: /integrity:|qr/,
    build: async () => (await createPdfFactory(ctx.keys.active.pdfSigner)).render(genuineDoc, rows[1]!.qrPayload),
  },
];

describe('genuine controls: the platform’s own diploma is authentic on every path', () => {
  it('PDF upload, QR field, id, CLI with no option', async () => {
    expect(((await upload({ data: genuinePdf, name: 'diplome.pdf' })).json().data as Answer).verdict).toBe('authentic');
    expect(((await upload(null, rows[0]!.qrPayload)).json().data as Answer).verdict).toBe('authentic');
    expect((await app.inject({ method: 'GET', url: `/api/verify/${rows[0]!.id}` })).json().data.verdict).toBe('authentic');
    const run = await cli(genuinePdf, 'genuine.pdf');
    expect(run.stdout).toContain('Verdict: AUTHENTIC');
    expect(run.code).toBe(0);
  });

  it('its SD-JWT VC and VC, uploaded and through the CLI', async () => {
    for (const [text, name] of [
      [await services.sdJwtVc!.issue(rows[0]!.id), 'genuine.sd-jwt'],
      [JSON.stringify(await services.vc.issue(rows[0]!.id)), 'genuine-vc.json'],
    ] as const) {
      expect(((await upload({ data: text, name })).json().data as Answer).verdict).toBe('authentic');
      const run = await cli(text, name);
      expect(run.code, run.stdout).toBe(0);
    }
  });
});

describe('PDF forgeries: refused by the upload and by the CLI', () => {
  for (const forgery of pdfCases) {
    it(forgery.name, async () => {
      const pdf = await forgery.build();
      const answer = await expectUploadRefused({ data: pdf, name: 'diplome.pdf' }, REFUSED, forgery.codes);
      expect(answer?.diploma ?? null).toBeNull();
      await expectCliRefused(pdf, 'forged.pdf');
    });
  }
});

describe('credential and QR forgeries: refused by the upload, the QR field and the CLI', () => {
  it('credential JSON: one claim changed', async () => {
    const doc = structuredClone(genuineDoc);
    doc.record.percentage = 95;
    await expectUploadRefused({ data: JSON.stringify(doc), name: 'credential.json' }, REFUSED, /integrity:/);
    await expectCliRefused(JSON.stringify(doc), 'forged.json');
  });

  it("credential JSON: another diploma's signature block pasted on it", async () => {
    const doc = { ...structuredClone(genuineDoc), signature: structuredClone((rows[1]!.credential as unknown as CredentialDocument).signature) };
    await expectUploadRefused({ data: JSON.stringify(doc), name: 'credential.json' }, REFUSED);
    await expectCliRefused(JSON.stringify(doc), 'forged.json');
  });

  it('credential JSON: 50,000 nested arrays inside the record (bounded time, a verdict or a 4xx, never a crash)', async () => {
    const nested = `{"version":"sceau-credential/2","record":{"last_name":${'['.repeat(50_000)}${']'.repeat(50_000)}},"signature":{}}`;
    const started = performance.now();
    await expectUploadRefused({ data: nested, name: 'credential.json' }, [...REFUSED]);
    expect(performance.now() - started).toBeLessThan(5_000);
    await expectCliRefused(nested, 'nested.json');
  });

  it('QR: a text of 200 KB starting like a QR payload (refused by its bound, never decoded)', async () => {
    const huge = `SC1:${'A'.repeat(200 * 1024)}`;
    const res = await upload(null, huge);
    if (res.statusCode === 200) expectRefused(res.json().data, REFUSED);
    else expect(res.statusCode).toBeLessThan(500);
    await expectUploadRefused({ data: huge, name: 'qr.txt' });
  });

  it('QR: one character of a genuine QR changed', async () => {
    const qr = rows[0]!.qrPayload;
    const forged = qr.slice(0, 40) + (qr[40] === 'A' ? 'B' : 'A') + qr.slice(41);
    expectRefused((await upload(null, forged)).json().data, REFUSED, /issuer_signature:/);
    await expectUploadRefused({ data: forged, name: 'qr.txt' });
    await expectCliRefused(forged, 'qr');
  });

  it('QR: signed by a look-alike key carrying the real kid', async () => {
    const forged = await signQr(qrFieldsFromDocument(genuineDoc), { kid: ctx.keys.active.es256.kid, sign: forger.es256.sign });
    expectRefused((await upload(null, forged)).json().data, REFUSED, /issuer_signature:/);
    await expectCliRefused(forged, 'qr');
  });
});

// ------------------------------------------------------------------------------ portable forms

const b64json = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
function parts(compact: string) {
  const [jwt, ...rest] = compact.split('~');
  const [header, payload, signature] = jwt!.split('.');
  return { header: header!, payload: payload!, signature: signature!, disclosures: rest.filter(Boolean) };
}
const decode = (segment: string) => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as Record<string, unknown>;
const claimOf = (disclosure: string) => (JSON.parse(Buffer.from(disclosure, 'base64url').toString('utf8')) as unknown[])[1];
const deep = (depth: number) => `{"@context":["https://www.w3.org/ns/credentials/v2"],"type":["VerifiableCredential"],"x":${'['.repeat(depth)}${']'.repeat(depth)}}`;

const portableCases: { name: string; file: string; build: () => Promise<string>; codes?: RegExp }[] = [
  {
    name: "SD-JWT: a disclosure swapped for the same claim of another diploma's credential",
    file: 'forged.sd-jwt',
    codes: /integrity:/,
    build: async () => {
      const mine = await services.sdJwtVc!.issue(rows[0]!.id);
      const theirs = await services.sdJwtVc!.issue(rows[1]!.id);
      const pick = (c: string) => parts(c).disclosures.find((d) => claimOf(d) === 'family_name')!;
      return mine.replace(pick(mine), pick(theirs));
    },
  },
  {
    name: 'SD-JWT: a disclosure added that no digest of `_sd` commits',
    file: 'forged.sd-jwt',
    codes: /integrity:/,
    build: async () => `${await services.sdJwtVc!.issue(rows[0]!.id)}${Buffer.from(JSON.stringify(['c2FsdHNhbHRzYWx0', 'mention', 'Grande distinction'])).toString('base64url')}~`,
  },
  {
    name: 'SD-JWT: a plain payload claim changed, the signature kept',
    file: 'forged.sd-jwt',
    codes: /issuer_signature:/,
    build: async () => {
      const p = parts(await services.sdJwtVc!.issue(rows[0]!.id));
      return `${p.header}.${b64json({ ...decode(p.payload), session_year: 1999 })}.${p.signature}~${p.disclosures.join('~')}~`;
    },
  },
  {
    name: 'SD-JWT: `iss` a look-alike address, signed by its own key',
    file: 'forged.sd-jwt',
    codes: /issuer_identity:|issuer_signature:/,
    build: async () => {
      const p = parts(await services.sdJwtVc!.issue(rows[0]!.id));
      const claims = Object.fromEntries(p.disclosures.map((d) => JSON.parse(Buffer.from(d, 'base64url').toString('utf8')) as unknown[]).map((d) => [d[1], d[2]]));
      const payload = decode(p.payload);
      return issueDiplomaSdJwt({
        issuer: 'https://diplomes-example.cd',
        vct: vctUrl('https://diplomes-example.cd'),
        claims: { ...payload, ...claims } as never,
        signer: { kid: ctx.keys.active.kid, sign: (data) => forger.es256.sign(data) },
      });
    },
  },
  {
    name: 'SD-JWT: signed by a look-alike key carrying the real kid and iss',
    file: 'forged.sd-jwt',
    codes: /issuer_signature:/,
    build: async () => {
      const p = parts(await services.sdJwtVc!.issue(rows[0]!.id));
      const signature = Buffer.from(await forger.es256.sign(new TextEncoder().encode(`${p.header}.${p.payload}`))).toString('base64url');
      return `${p.header}.${p.payload}.${signature}~${p.disclosures.join('~')}~`;
    },
  },
  {
    name: '`alg: none`, no signature',
    file: 'forged.sd-jwt',
    build: async () => {
      const p = parts(await services.sdJwtVc!.issue(rows[0]!.id));
      return `${b64json({ ...decode(p.header), alg: 'none' })}.${p.payload}.~${p.disclosures.join('~')}~`;
    },
  },
  {
    name: "SD-JWT: HS256 with the ministry's published key as the HMAC secret",
    file: 'forged.sd-jwt',
    build: async () => {
      const p = parts(await services.sdJwtVc!.issue(rows[0]!.id));
      const header = b64json({ ...decode(p.header), alg: 'HS256' });
      const key = services.identity!.keys.jwks().keys.find((k) => k.kid === ctx.keys.active.kid)!;
      const mac = createHmac('sha256', JSON.stringify(key)).update(`${header}.${p.payload}`).digest('base64url');
      return `${header}.${p.payload}.${mac}~${p.disclosures.join('~')}~`;
    },
  },
  {
    name: 'SD-JWT: a disclosure nested 40,000 arrays deep (bounded time, no crash)',
    file: 'forged.sd-jwt',
    build: async () => `${await services.sdJwtVc!.issue(rows[0]!.id)}${Buffer.from(`["c2FsdA","mention",${'['.repeat(40_000)}${']'.repeat(40_000)}]`).toString('base64url')}~`,
  },
  {
    name: 'SD-JWT: a payload nested 25,000 objects deep, the signature kept (bounded time, no crash)',
    file: 'forged.sd-jwt',
    build: async () => {
      const [jwt, ...rest] = (await services.sdJwtVc!.issue(rows[0]!.id)).split('~');
      const [header, , signature] = jwt!.split('.');
      const payload = Buffer.from(`{"iss":"https://diplomes.example.cd","x":${'{"a":'.repeat(25_000)}1${'}'.repeat(25_000)}}`).toString('base64url');
      return `${header}.${payload}.${signature}~${rest.join('~')}`;
    },
  },
  {
    name: 'SD-JWT: larger than 256 KB',
    file: 'forged.sd-jwt',
    build: async () => `${await services.sdJwtVc!.issue(rows[0]!.id)}${'A'.repeat(300 * 1024)}~`,
  },
  {
    name: "VC: a claim changed (the holder's name)",
    file: 'forged-vc.json',
    codes: /issuer_signature:|integrity:/,
    build: async () => {
      const vc = (await services.vc.issue(rows[0]!.id)) as { credentialSubject: { name?: string } };
      vc.credentialSubject.name = 'FAUSSAIRE';
      return JSON.stringify(vc);
    },
  },
  {
    name: "VC: another diploma's proof pasted on it",
    file: 'forged-vc.json',
    codes: /issuer_signature:|integrity:/,
    build: async () => JSON.stringify({ ...(await services.vc.issue(rows[0]!.id)), proof: ((await services.vc.issue(rows[1]!.id)) as { proof: unknown }).proof }),
  },
  {
    name: 'VC: its status list index moved (the proof kept)',
    file: 'forged-vc.json',
    codes: /issuer_signature:|integrity:/,
    build: async () => {
      const vc = (await services.vc.issue(rows[0]!.id)) as { credentialStatus: { statusListIndex: string } };
      vc.credentialStatus.statusListIndex = String(Number(vc.credentialStatus.statusListIndex) + 1);
      return JSON.stringify(vc);
    },
  },
  {
    name: 'VC: issuer swapped to a look-alike did:web, signed by its own key',
    file: 'forged-vc.json',
    codes: /issuer/,
    build: async () => {
      const unsigned = (await services.vc.unsigned(rows[0]!.id)) as { issuer: { id: string } };
      const did = 'did:web:diplomes-example.cd';
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = privateKey.export({ format: 'jwk' }) as { x: string; y: string };
      const key = { kid: 'k1', publicJwk: { kty: 'EC' as const, crv: 'P-256' as const, x: jwk.x, y: jwk.y }, retiredAt: null };
      const loader = createDocumentLoader({ didDocuments: [await buildDidDocument(did, [key])], resolve: async () => null });
      unsigned.issuer = { ...unsigned.issuer, id: did };
      const sign = async (data: Uint8Array) => new Uint8Array(nodeSign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' }));
      return JSON.stringify(await secureCredential(unsigned, { signer: proofSigner(verificationMethodId(did, 'k1'), sign), documentLoader: loader }));
    },
  },
  {
    name: 'VC: an unknown remote context injected',
    file: 'forged-vc.json',
    build: async () => {
      const vc = (await services.vc.issue(rows[0]!.id)) as { '@context': string[] };
      return JSON.stringify({ ...vc, '@context': [...vc['@context'], 'https://evil.example/context.json'] });
    },
  },
  { name: 'VC: larger than 256 KB', file: 'forged-vc.json', build: async () => JSON.stringify({ ...(await services.vc.issue(rows[0]!.id)), padding: 'x'.repeat(300 * 1024) }) },
  { name: 'VC: 50,000 nested arrays within the size bound', file: 'forged-vc.json', build: async () => deep(50_000) },
];

describe('SD-JWT VC and W3C VC forgeries: refused by the upload and by the CLI', () => {
  for (const forgery of portableCases) {
    it(forgery.name, async () => {
      const text = await forgery.build();
      const started = performance.now();
      await expectUploadRefused({ data: text, name: forgery.file }, REFUSED, forgery.codes);
      await expectCliRefused(text, forgery.file);
      expect(performance.now() - started).toBeLessThan(10_000);
    });
  }
});

// ------------------------------------------------------------------------------ after a rotation

describe('after a key rotation: what the retired key signs is refused on every path', () => {
  let retiredSigner: typeof ctx.keys.active;
  let rotated: App;

  beforeAll(async () => {
    // The thief's copy of the key: the signer loaded before the rotation (the file is then deleted).
    retiredSigner = ctx.keys.active;
    await rotateDevelopmentKey(ctx.config.keys);
    // What the thief signs "after the retirement" is at least a second after it: signing times are
    // read to the second (time-stamps, `iat`), and within that second the verifiers cannot say.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const keys = await loadMinistryKeys(ctx.config.keys, pino({ level: 'silent' }));
    services = createServices(ctx.db, ctx.config, { identity: { keys, chain: ctx.chain } });
    rotated = await buildApp({ db: ctx.db, config: ctx.config, services });
    await rotated.ready();
    await app.close();
    app = rotated;
    await writeDevelopmentTrustList(ctx.config, keys, ctx.chain);
  }, 60_000);

  it('the genuine PDF signed before the rotation stays authentic (control)', async () => {
    expect(((await upload({ data: genuinePdf, name: 'diplome.pdf' })).json().data as Answer).verdict).toBe('authentic');
  });

  it('PDF: re-rendered with a changed name, signed with the retired key, no time-stamp: the platform never issued it; the CLI could not check', async () => {
    const forged = await (await createPdfFactory(retiredSigner.pdfSigner)).render(renamed(genuineDoc), rows[0]!.qrPayload, { attached: genuineDoc });
    await expectUploadRefused({ data: forged, name: 'diplome.pdf' }, REFUSED, /pdf_signature:pdf_not_issued/);
    await expectCliRefused(forged, 'forged.pdf', true);
  });

  it("PDF: the same, time-stamped by the platform's own trusted TSA after the retirement", async () => {
    const forged = await (await createPdfFactory(retiredSigner.pdfSigner)).render(renamed(genuineDoc), rows[0]!.qrPayload, {
      attached: genuineDoc,
      signOptions: { timestamper: await services.timestamping!.timestamper() },
    });
    await expectUploadRefused({ data: forged, name: 'diplome.pdf' }, REFUSED, /pdf_signature:pdf_key_retired/);
    await expectCliRefused(forged, 'forged.pdf');
  });

  it("QR: re-signed with the retired key after its retirement, the name changed, over a genuine diploma's target hash: the credential refuses it; alone, could not check", async () => {
    // The thief cannot anchor a batch of their own (that takes the registry's owner key, ADR 0148), so
    // the QR points at a genuine batch anchored before the retirement: its signature is dated by that
    // anchoring (ADR 0138) and passes, but its fields no longer match the credential the platform holds.
    // (A batch anchored after the retirement with the retired key: packages/verifier's corpus, key_retired.)
    const qr = await signQr({ ...qrFieldsFromDocument(genuineDoc), last_name: 'FAUSSAIRE' }, retiredSigner.es256);
    expectRefused((await upload(null, qr)).json().data, ['altered'], /integrity:qr_credential_mismatch/);
    await expectUploadRefused({ data: qr, name: 'qr.txt' }, ['altered']);
    // The CLI with the QR alone (no platform given): nothing dates the signature, nothing to compare the fields with.
    await expectCliRefused(qr, 'qr', true);
  });

  it('SD-JWT: the kid of the retired key, issued after its retirement', async () => {
    const p = parts(await services.sdJwtVc!.issue(rows[0]!.id));
    const header = b64json({ ...decode(p.header), kid: retiredSigner.kid });
    const signature = Buffer.from(await retiredSigner.es256.sign(new TextEncoder().encode(`${header}.${p.payload}`))).toString('base64url');
    const forged = `${header}.${p.payload}.${signature}~${p.disclosures.join('~')}~`;
    await expectUploadRefused({ data: forged, name: 'forged.sd-jwt' }, REFUSED, /issuer_signature:/);
    await expectCliRefused(forged, 'forged.sd-jwt');
  });

  it('SD-JWT: a new diploma made up with the retired key, `iat` backdated to before its retirement: never authentic (could not check)', async () => {
    const p = parts(await services.sdJwtVc!.issue(rows[0]!.id));
    const payload = { ...decode(p.payload), iat: Math.floor(Date.now() / 1000) - 30 * 86_400, session_year: 2019 };
    const header = b64json({ ...decode(p.header), kid: retiredSigner.kid });
    const body = b64json(payload);
    const signature = Buffer.from(await retiredSigner.es256.sign(new TextEncoder().encode(`${header}.${body}`))).toString('base64url');
    const forged = `${header}.${body}.${signature}~${p.disclosures.join('~')}~`;
    const answer = await expectUploadRefused({ data: forged, name: 'forged.sd-jwt' }, [...REFUSED, 'incomplete'], /issuer_signature:signing_time_unknown/);
    expect(answer?.checks.find((c) => c.name === 'issuer_signature')?.status).toBe('not-checked');
    await expectCliRefused(forged, 'forged.sd-jwt', true);
  });

  it('VC: a proof by the retired key, `created` backdated to before its retirement: never authentic (could not check)', async () => {
    const unsigned = await services.vc.unsigned(rows[0]!.id);
    const did = services.vc.did!.did;
    const signer = proofSigner(verificationMethodId(did, retiredSigner.kid), (data) => retiredSigner.es256.sign(data));
    const forged = JSON.stringify(
      await secureCredential(unsigned, { signer, documentLoader: services.vc.did!.documentLoader(async () => null), date: new Date(Date.now() - 30 * 86_400_000) }),
    );
    const answer = await expectUploadRefused({ data: forged, name: 'forged-vc.json' }, [...REFUSED, 'incomplete'], /issuer_signature:signing_time_unknown/);
    expect(answer?.checks.find((c) => c.name === 'issuer_signature')?.status).toBe('not-checked');
    await expectCliRefused(forged, 'forged-vc.json', true);
  });

  it('VC: a proof by the retired key, created after its retirement', async () => {
    const unsigned = await services.vc.unsigned(rows[0]!.id);
    const did = services.vc.did!.did;
    const signer = proofSigner(verificationMethodId(did, retiredSigner.kid), (data) => retiredSigner.es256.sign(data));
    const forged = JSON.stringify(await secureCredential(unsigned, { signer, documentLoader: services.vc.did!.documentLoader(async () => null) }));
    await expectUploadRefused({ data: forged, name: 'forged-vc.json' }, REFUSED, /issuer/);
    await expectCliRefused(forged, 'forged-vc.json');
  });
});

// ------------------------------------------------------------------------------ revocations (last: they change the batch)

describe('a revoked diploma and a revoked batch: revoked on every path', () => {
  it('a revoked diploma: by id, its PDF, its QR, its SD-JWT VC and VC, and the CLI', async () => {
    const target = rows[2]!;
    const pdf = new Uint8Array((await services.storage.get(target.pdfKey!))!);
    const sdJwt = await services.sdJwtVc!.issue(target.id);
    const vc = JSON.stringify(await services.vc.issue(target.id));
    await ctx.chain.registry.revoke(`0x${target.targetHash}`, 'Fraude constatée');
    await ctx.db.update(diplomas).set({ revokedAt: new Date(), revocationReason: 'Fraude constatée' }).where(eq(diplomas.id, target.id));
    services.verification!.invalidate(`0x${target.targetHash}`);
    const byId = (await app.inject({ method: 'GET', url: `/api/verify/${target.id}` })).json().data as Answer;
    expectRefused(byId, ['revoked'], /not_revoked:diploma_revoked/);
    expectRefused((await upload({ data: pdf, name: 'diplome.pdf' })).json().data, ['revoked']);
    expectRefused((await upload(null, target.qrPayload)).json().data, ['revoked']);
    await vi.waitFor(async () => expectRefused((await upload({ data: sdJwt, name: 'd.sd-jwt' })).json().data, ['revoked']), { timeout: 15_000, interval: 500 });
    await vi.waitFor(async () => expectRefused((await upload({ data: vc, name: 'd.json' })).json().data, ['revoked']), { timeout: 15_000, interval: 500 });
    for (const [content, name] of [
      [pdf, 'revoked.pdf'],
      [target.qrPayload, 'qr'],
      [sdJwt, 'revoked.sd-jwt'],
      [vc, 'revoked-vc.json'],
    ] as const)
      await expectCliRefused(content, name);
  });

  it('a revoked batch: another diploma of it by id, its PDF, its QR (the platform holds its credential), its SD-JWT VC, and the CLI', async () => {
    const target = rows[3]!;
    const [batch] = await ctx.db.select().from(generations).where(eq(generations.id, target.generationId!));
    const pdf = new Uint8Array((await services.storage.get(target.pdfKey!))!);
    const sdJwt = await services.sdJwtVc!.issue(target.id);
    await ctx.chain.registry.revoke(`0x${batch!.merkleRoot}`, 'Session annulée');
    await ctx.db.update(generations).set({ revokedAt: new Date() }).where(eq(generations.id, batch!.id));
    services.verification!.invalidate(`0x${batch!.merkleRoot}`);
    expectRefused((await app.inject({ method: 'GET', url: `/api/verify/${target.id}` })).json().data, ['revoked'], /batch_revoked/);
    expectRefused((await upload({ data: pdf, name: 'diplome.pdf' })).json().data, ['revoked'], /batch_revoked/);
    expectRefused((await upload(null, target.qrPayload)).json().data, ['revoked'], /batch_revoked/);
    await vi.waitFor(async () => expectRefused((await upload({ data: sdJwt, name: 'd.sd-jwt' })).json().data, ['revoked']), { timeout: 15_000, interval: 500 });
    await expectCliRefused(pdf, 'batch-revoked.pdf');
    await expectCliRefused(sdJwt, 'batch-revoked.sd-jwt');
  });
});
