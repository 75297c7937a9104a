import { issueDiplomaSdJwt, presentDiplomaSdJwt, vctUrl, type PublishedJwk, type RawEs256Signer } from '@sceau/sd-jwt';
import {
  buildDidDocument,
  buildOpenBadgeCredential,
  buildStatusListCredential,
  createDocumentLoader,
  didWebFor,
  encodeBitstring,
  encodeTokenStatusList,
  proofSigner,
  secureCredential,
} from '@sceau/vc';
import { diplomaInput, testIssuer, type TestIssuer } from '@sceau/vc/test-support';
import { generateKeyPairSync, sign as nodeSign, type KeyObject } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PORTABLE_BYTES, sniffPortable, verifyPortable, type PortableContext, type PortableIssuer } from './portable.ts';

const URL_ = 'https://diplomes.example.cd';
const TOKEN_URL = `${URL_}/credentials/status/0/token`;
const LIST_URL = `${URL_}/credentials/status/0`;

let ministry: TestIssuer;
let signer: RawEs256Signer;
let pinned: PortableIssuer;

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
  ministry = await testIssuer();
  const key = ministry.keys.at(-1)!;
  signer = { kid: key.kid, sign: async (data) => new Uint8Array(nodeSign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' })) };
  pinned = { url: URL_, id: 'minepst.gouv.cd', name: 'Ministère', jwks: { keys: ministry.keys.map((k): PublishedJwk => ({ ...k.publicJwk, kid: k.kid })) } };
});

async function tokenStatusList(revoked: number[]) {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const iat = Math.floor(Date.now() / 1000);
  const input = `${b64({ alg: 'ES256', typ: 'statuslist+jwt', kid: signer.kid })}.${b64({ iss: URL_, sub: TOKEN_URL, iat, exp: iat + 3600, status_list: encodeTokenStatusList(revoked) })}`;
  return `${input}.${Buffer.from(await signer.sign(new TextEncoder().encode(input))).toString('base64url')}`;
}

async function statusListCredential(revoked: number[]) {
  return secureCredential(buildStatusListCredential({ id: LIST_URL, issuer: ministry.did, validFrom: new Date(Date.now() - 60_000), encodedList: encodeBitstring(revoked) }), {
    signer: ministry.signer(),
    documentLoader: ministry.loader(),
  });
}

function context(revoked: number[], overrides: Partial<PortableContext> = {}): PortableContext {
  return {
    issuers: [pinned],
    fetchTokenStatusList: async (uri) => {
      if (uri !== TOKEN_URL) throw new Error('unknown list');
      return tokenStatusList(revoked);
    },
    fetchStatusListCredential: async (url) => (url === LIST_URL ? statusListCredential(revoked) : null),
    ...overrides,
  };
}

const sdJwt = (issuer = URL_) => issueDiplomaSdJwt({ issuer, vct: vctUrl(issuer), claims, signer, status: { idx: 7, uri: TOKEN_URL } });

async function openBadge() {
  const loader = ministry.loader(async (url) => (url === LIST_URL ? statusListCredential([]) : null));
  return secureCredential(buildOpenBadgeCredential(diplomaInput(ministry.did, { issuedAt: new Date(Date.now() - 3_600_000) })), {
    signer: ministry.signer(),
    documentLoader: loader,
  });
}

describe('portable forms', () => {
  it('tells the forms apart by their content', async () => {
    expect(sniffPortable(await sdJwt())).toBe('sd-jwt');
    expect(sniffPortable(JSON.stringify(await openBadge()))).toBe('vc');
    expect(sniffPortable('{"version":"sceau-credential/2"}')).toBeNull();
    expect(sniffPortable('SC1:ABC')).toBeNull();
  });

  it('an SD-JWT VC of the pinned issuer: authentic, every check named; revoked by its token status list', async () => {
    const result = await verifyPortable(await sdJwt(), context([]));
    expect(result?.verdict).toBe('authentic');
    expect(result?.checks.map((c) => `${c.name}:${c.status}:${c.code}`)).toEqual([
      'integrity:passed:disclosures_match',
      'issuer_signature:passed:signature_valid',
      'issuer_identity:passed:issuer_address_matches',
      'credential_type:passed:type_matches',
      'validity_period:passed:within_validity',
      'not_revoked:passed:not_revoked',
    ]);
    expect(result?.diploma).toMatchObject({ id: 'AAAAAAAAAAAAAAAAAAAAAA', last_name: 'MUKENDI', percentage: 71.5, issuer: { id: 'minepst.gouv.cd' } });

    const revoked = await verifyPortable(await sdJwt(), context([7]));
    expect(revoked?.verdict).toBe('revoked');
    expect(revoked?.checks.find((c) => c.name === 'not_revoked')).toMatchObject({ status: 'failed', code: 'diploma_revoked' });
  });

  it('names the claims a presentation hides', async () => {
    const shown = await presentDiplomaSdJwt(await sdJwt(), ['family_name', 'given_name', 'school', 'option']);
    const result = await verifyPortable(shown, context([]));
    expect(result?.verdict).toBe('authentic');
    expect(result?.diploma).not.toHaveProperty('percentage');
    expect(result?.diploma?.hidden_fields).toEqual(expect.arrayContaining(['birth_place', 'percentage', 'birth_date']));
  });

  it('never says passed for a status it could not read: incomplete', async () => {
    const result = await verifyPortable(await sdJwt(), context([], { fetchTokenStatusList: async () => Promise.reject(new Error('ECONNREFUSED')) }));
    expect(result?.verdict).toBe('incomplete');
    expect(result?.checks.find((c) => c.name === 'not_revoked')).toMatchObject({ status: 'not-checked', code: 'status_list_unreachable' });
  });

  it('a look-alike issuer (its own keys, its own address) is refused: altered', async () => {
    const result = await verifyPortable(await sdJwt('https://diplomes.example.cd.example.net'), context([]));
    expect(result?.verdict).toBe('altered');
    expect(result?.checks.find((c) => c.name === 'issuer_identity')).toMatchObject({ status: 'failed', code: 'issuer_mismatch' });
    expect(result?.diploma).toBeUndefined();

    // The same for a VC: a did:web of a look-alike domain, its own keys, a valid proof by them.
    const other = await testIssuer();
    const lookAlike = didWebFor('https://diplomes.example.cd.example.net');
    const key = other.keys.at(-1)!;
    const foreign = await secureCredential(buildOpenBadgeCredential(diplomaInput(lookAlike)), {
      signer: proofSigner(`${lookAlike}#${key.kid}`, async (data) => new Uint8Array(nodeSign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' }))),
      documentLoader: createDocumentLoader({ didDocuments: [await buildDidDocument(lookAlike, other.keys)] }),
    });
    const vc = await verifyPortable(JSON.stringify(foreign), context([]));
    expect(vc?.verdict).toBe('altered');
    expect(vc?.diploma).toBeUndefined();
  });

  it('a W3C VC with a Data Integrity proof by the pinned issuer: authentic; revoked by its bitstring status list; a changed field altered', async () => {
    const credential = await openBadge();
    const result = await verifyPortable(JSON.stringify(credential), context([]));
    expect(result?.form).toBe('vc');
    expect(result?.checks.map((c) => `${c.name}:${c.status}`)).toEqual(['issuer_signature:passed', 'issuer_identity:passed', 'validity_period:passed', 'not_revoked:passed']);
    expect(result?.verdict).toBe('authentic');
    expect(result?.diploma).toMatchObject({ id: 'AAAAAAAAAAAAAAAAAAAAAA', last_name: 'Ngalula Mbuyi Kabasele', percentage: 68.4 });

    expect((await verifyPortable(JSON.stringify(credential), context([7])))?.verdict).toBe('revoked');
    const unreachable = await verifyPortable(JSON.stringify(credential), context([], { fetchStatusListCredential: async () => null }));
    expect(unreachable?.verdict).toBe('incomplete');
    expect(unreachable?.checks.find((c) => c.name === 'not_revoked')?.status).toBe('not-checked');

    const changed = structuredClone(credential) as typeof credential & { credentialSubject: { name: string } };
    changed.credentialSubject.name = 'Someone Else';
    const forged = await verifyPortable(JSON.stringify(changed), context([]));
    expect(forged?.verdict).toBe('altered');
    expect(forged?.checks.find((c) => c.name === 'issuer_signature')?.status).toBe('failed');
  }, 30_000);

  it('key binding is its own check (key_binding), never the ministry signature: another key, another presentation; a bound credential without it stays authentic and says so', async () => {
    const keyPair = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const holder = keyPair();
    const stranger = keyPair();
    const holderJwk = holder.publicKey.export({ format: 'jwk' }) as { kty: string; crv: string; x: string; y: string };
    const bound = await issueDiplomaSdJwt({ issuer: URL_, vct: vctUrl(URL_), claims, signer, status: { idx: 7, uri: TOKEN_URL }, holderPublicJwk: holderJwk });
    const signerOf = async (privateKey: KeyObject) => ({
      sign: async (data: Uint8Array) => new Uint8Array(nodeSign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' })),
    });
    const byStranger = await presentDiplomaSdJwt(bound, ['family_name'], { signer: await signerOf(stranger.privateKey), aud: URL_, nonce: 'n' });
    const wrong = await verifyPortable(byStranger, context([]));
    expect(wrong?.verdict).toBe('altered');
    expect(wrong?.checks.find((c) => c.name === 'issuer_signature')).toMatchObject({ status: 'passed', code: 'signature_valid' });
    expect(wrong?.checks.find((c) => c.name === 'key_binding')).toMatchObject({ status: 'failed', code: 'key_binding_wrong_key' });

    const byHolder = await presentDiplomaSdJwt(bound, ['family_name'], { signer: await signerOf(holder.privateKey), aud: URL_, nonce: 'n' });
    expect((await verifyPortable(byHolder, context([])))?.checks.find((c) => c.name === 'key_binding')).toMatchObject({ status: 'passed', code: 'key_binding_valid' });

    const shown = await verifyPortable(bound, context([]));
    expect(shown?.verdict).toBe('authentic');
    expect(shown?.checks.find((c) => c.name === 'key_binding')).toMatchObject({ status: 'not-checked', code: 'key_binding_not_presented' });
  });

  it('a key binding by a holder key (cnf.jwk) that carries any private member: key_binding failed, the ministry signature passed (ADR 0146)', async () => {
    const holder = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const holderJwk = holder.publicKey.export({ format: 'jwk' }) as { kty: string; crv: string; x: string; y: string };
    const holderD = (holder.privateKey.export({ format: 'jwk' }) as { d: string }).d;
    const [jwt, ...rest] = (await issueDiplomaSdJwt({ issuer: URL_, vct: vctUrl(URL_), claims, signer, status: { idx: 7, uri: TOKEN_URL }, holderPublicJwk: holderJwk })).split(
      '~',
    );
    const [h, p] = jwt!.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString('utf8')) as { cnf: { jwk: Record<string, unknown> } };
    /** The credential as the ministry would sign it with these members added to its cnf.jwk. */
    const resigned = async (extra: Record<string, unknown>) => {
      const input = `${h}.${Buffer.from(JSON.stringify({ ...payload, cnf: { jwk: { ...payload.cnf.jwk, ...extra } } })).toString('base64url')}`;
      return [`${input}.${Buffer.from(await signer.sign(new TextEncoder().encode(input))).toString('base64url')}`, ...rest].join('~');
    };
    const sign = { sign: async (data: Uint8Array) => new Uint8Array(nodeSign('sha256', data, { key: holder.privateKey, dsaEncoding: 'ieee-p1363' })) };
    const members: Record<string, unknown> = { d: holderD, p: 'AQAB', q: 'AQAB', dp: 'AQAB', dq: 'AQAB', qi: 'AQAB', oth: [{ r: 'AQAB', d: 'AQAB', t: 'AQAB' }], k: 'AQAB' };
    for (const [member, value] of Object.entries(members)) {
      const result = await verifyPortable(await presentDiplomaSdJwt(await resigned({ [member]: value }), ['family_name'], { signer: sign, aud: URL_, nonce: 'n' }), context([]));
      expect(result?.verdict, member).toBe('altered');
      expect(
        result?.checks.find((c) => c.name === 'issuer_signature'),
        member,
      ).toMatchObject({ status: 'passed', code: 'signature_valid' });
      expect(
        result?.checks.find((c) => c.name === 'key_binding'),
        member,
      ).toEqual({
        name: 'key_binding',
        status: 'failed',
        code: 'key_binding_invalid',
        details: { detail: 'the holder key the credential names (cnf.jwk) carries private key material' },
      });
    }
    const good = await verifyPortable(await presentDiplomaSdJwt(await resigned({}), ['family_name'], { signer: sign, aud: URL_, nonce: 'n' }), context([]));
    expect(good?.verdict).toBe('authentic');
    expect(good?.checks.find((c) => c.name === 'key_binding')).toMatchObject({ status: 'passed', code: 'key_binding_valid' });
  });

  it('refuses a text past the bound before parsing it', async () => {
    const result = await verifyPortable(`{${' '.repeat(MAX_PORTABLE_BYTES)}}`, context([]));
    expect(result?.checks[0]).toMatchObject({ name: 'integrity', status: 'failed', code: 'portable_too_large' });
  });
});
