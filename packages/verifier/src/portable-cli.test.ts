import { generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { issueDiplomaSdJwt, presentDiplomaSdJwt, vctUrl, type RawEs256Signer } from '@sceau/sd-jwt';
import { buildOpenBadgeCredential, buildStatusListCredential, encodeBitstring, encodeTokenStatusList, secureCredential } from '@sceau/vc';
import { diplomaInput, testIssuer, type TestIssuer } from '@sceau/vc/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-run.ts';
import { TRUST_LIST_FORMAT } from './trust-list.ts';

// ADR 0145: the independent verifier checks an SD-JWT VC and a W3C VC file too, pinned to its trust list.

const PLATFORM = 'https://diplomes.example.cd';
const TOKEN_URL = `${PLATFORM}/credentials/status/0/token`;
const LIST_URL = `${PLATFORM}/credentials/status/0`;

let dir: string;
let ministry: TestIssuer;
let signer: RawEs256Signer;
let trustList: string;

const claims = {
  diploma_id: 'AAAAAAAAAAAAAAAAAAAAAA',
  kind: 'diplome_etat' as const,
  session: 'Juin 2026',
  session_year: 2026,
  issue_date: '2026-07-20',
  family_name: 'MUKENDI',
  given_name: 'Grâce',
  birthdate: '2008-03-14',
  place_of_birth: 'Kananga',
  gender: 'F' as const,
  option: 'Scientifique',
  option_code: 'SC',
  school: 'Lycée Lumière',
  school_code: 'LL01',
  centre: 'Institut St Joseph',
  centre_code: 'C12',
  province: 'Kasaï-Central 1',
  province_code: 'KC1',
  percentage: 71.5,
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sceau-portable-cli-'));
  ministry = await testIssuer();
  const key = ministry.keys.at(-1)!;
  signer = { kid: key.kid, sign: async (data) => new Uint8Array(nodeSign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' })) };
  trustList = path.join(dir, 'trust-list.json');
  await writeFile(
    trustList,
    JSON.stringify({
      format: TRUST_LIST_FORMAT,
      issuers: [
        {
          id: 'minepst.gouv.cd',
          name: 'Ministère',
          jwks_uri: `${PLATFORM}/.well-known/jwks.json`,
          jwks: { keys: ministry.keys.map((k) => ({ ...k.publicJwk, kid: k.kid })) },
          registry: { chain_id: 72328, address: `0x${'ab'.repeat(20)}` },
        },
      ],
    }),
  );
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function tokenStatusList(revoked: number[]) {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const iat = Math.floor(Date.now() / 1000);
  const input = `${b64({ alg: 'ES256', typ: 'statuslist+jwt', kid: signer.kid })}.${b64({ iss: PLATFORM, sub: TOKEN_URL, iat, exp: iat + 3600, status_list: encodeTokenStatusList(revoked) })}`;
  return `${input}.${Buffer.from(await signer.sign(new TextEncoder().encode(input))).toString('base64url')}`;
}

const statusListCredential = (revoked: number[]) =>
  secureCredential(buildStatusListCredential({ id: LIST_URL, issuer: ministry.did, validFrom: new Date(Date.now() - 60_000), encodedList: encodeBitstring(revoked) }), {
    signer: ministry.signer(),
    documentLoader: ministry.loader(),
  });

/** The platform as the verifier reaches it: its status lists, or nothing (unreachable). */
function platform(revoked: number[] | 'down') {
  const requested: string[] = [];
  const fetcher = (async (input: string | URL | Request) => {
    const url = String(input);
    requested.push(url);
    if (revoked === 'down') throw new TypeError('fetch failed');
    if (url === TOKEN_URL) return new Response(await tokenStatusList(revoked), { headers: { 'content-type': 'application/statuslist+jwt' } });
    if (url === LIST_URL) return new Response(JSON.stringify(await statusListCredential(revoked)), { headers: { 'content-type': 'application/vc+ld+json' } });
    return new Response('not found', { status: 404 });
  }) as typeof fetch;
  return { fetcher, requested };
}

async function cli(file: string, content: string, revoked: number[] | 'down', extra: string[] = []) {
  const target = path.join(dir, file);
  await writeFile(target, content);
  const out: string[] = [];
  const err: string[] = [];
  const { fetcher, requested } = platform(revoked);
  const code = await runCli({ argv: [target, '--trust-list', trustList, ...extra], env: {}, stdout: (t) => out.push(t), stderr: (t) => err.push(t), fetch: fetcher });
  return { code, out: out.join(''), err: err.join(''), requested };
}

const sdJwt = (issuer = PLATFORM) => issueDiplomaSdJwt({ issuer, vct: vctUrl(issuer), claims, signer, status: { idx: 7, uri: TOKEN_URL } });

describe('sceau-verify on the portable forms', () => {
  it('an SD-JWT VC of the pinned issuer: authentic (exit 0), each check named; a presentation names what it hides', async () => {
    const run = await cli('diplome.sd-jwt', await sdJwt(), []);
    expect(run.code).toBe(0);
    expect(run.out).toContain('SD-JWT VC');
    expect(run.out).toContain('Issuer checked: Ministère (minepst.gouv.cd)');
    expect(run.out).toMatch(/✔ Not revoked: passed/);
    expect(run.out).toMatch(/✔ Credential type: passed/);
    expect(run.out).toContain('Verdict: AUTHENTIC');
    expect(run.requested).toEqual([TOKEN_URL]);

    const shown = await presentDiplomaSdJwt(await sdJwt(), ['family_name', 'given_name']);
    const presented = await cli('presented.txt', shown, [], ['--lang', 'fr']);
    expect(presented.code).toBe(0);
    expect(presented.out).toContain('non dévoilés');
    expect(presented.out).toContain('birth_place');
    expect(presented.out).toContain('Verdict: AUTHENTIQUE');
  });

  it('key binding: a presentation signed by another key than the holder’s fails as key binding (exit 1), the ministry signature passed; shown without it: authentic, said', async () => {
    const holder = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const holderJwk = holder.publicKey.export({ format: 'jwk' }) as { kty: string; crv: string; x: string; y: string };
    const bound = await issueDiplomaSdJwt({ issuer: PLATFORM, vct: vctUrl(PLATFORM), claims, signer, status: { idx: 7, uri: TOKEN_URL }, holderPublicJwk: holderJwk });
    const byStranger = await presentDiplomaSdJwt(bound, ['family_name'], {
      signer: { sign: async (data) => new Uint8Array(nodeSign('sha256', data, { key: stranger.privateKey, dsaEncoding: 'ieee-p1363' })) },
      aud: 'https://university.example.be',
      nonce: 'n',
    });
    const wrong = await cli('presented.txt', byStranger, []);
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/✔ Ministry signature: passed/);
    expect(wrong.out).toMatch(/✘ Key binding \(holder's key\): FAILED/);
    expect(wrong.out).toContain('[key_binding_wrong_key]');

    const shown = await cli('diplome.sd-jwt', bound, [], ['--lang', 'fr']);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('[key_binding_not_presented]');
    expect(shown.out).toContain('Liaison au porteur');
    expect(shown.out).toContain('Verdict: AUTHENTIQUE');
  });

  it('revoked (exit 1); the status list unreachable: "could not check", never passed (exit 2)', async () => {
    const revoked = await cli('diplome.sd-jwt', await sdJwt(), [7]);
    expect(revoked.code).toBe(1);
    expect(revoked.out).toMatch(/✘ Not revoked: FAILED/);
    expect(revoked.out).toContain('Verdict: REVOKED');

    const down = await cli('diplome.sd-jwt', await sdJwt(), 'down');
    expect(down.code).toBe(2);
    expect(down.out).toMatch(/\? Not revoked: could not check/);
    expect(down.out).not.toMatch(/Not revoked: passed/);
    expect(down.out).toContain('Verdict: COULD NOT BE FULLY CHECKED');
  });

  it('a look-alike issuer is refused (exit 1) and its status list never fetched', async () => {
    const run = await cli('diplome.sd-jwt', await sdJwt('https://diplomes.example.cd.example.net'), []);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/✘ Issuer identity: FAILED/);
    expect(run.out).toContain('Verdict: ALTERED OR FORGED');
    expect(run.requested).toEqual([]);
  });

  it('a W3C VC JSON of the pinned issuer: authentic; revoked by its bitstring status list; unreachable: could not check', async () => {
    const loader = ministry.loader(async (url) => (url === LIST_URL ? statusListCredential([]) : null));
    const credential = await secureCredential(buildOpenBadgeCredential(diplomaInput(ministry.did, { issuedAt: new Date(Date.now() - 3_600_000) })), {
      signer: ministry.signer(),
      documentLoader: loader,
    });
    const ok = await cli('diplome.json', JSON.stringify(credential), []);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('W3C verifiable credential');
    expect(ok.out).toContain('Verdict: AUTHENTIC');
    expect((await cli('diplome.json', JSON.stringify(credential), [7])).code).toBe(1);
    const down = await cli('diplome.json', JSON.stringify(credential), 'down', ['--json']);
    expect(down.code).toBe(2);
    const report = JSON.parse(down.out) as { verdict: string; checks: { name: string; status: string }[] };
    expect(report.verdict).toBe('incomplete');
    expect(report.checks.find((c) => c.name === 'not_revoked')?.status).toBe('not-checked');
  }, 30_000);

  it('refuses a portable file past 256 KB before parsing it (usage error, exit 2)', async () => {
    const run = await cli('huge.sd-jwt', `${await sdJwt()}${'A'.repeat(300 * 1024)}~`, []);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/larger than 256 KB/);
  });
});
