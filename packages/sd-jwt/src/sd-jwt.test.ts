import { generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { digest, ES256 } from '@sd-jwt/crypto-nodejs';
import { createHeaderAndPayload, StatusList } from '@sd-jwt/jwt-status-list';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { describe, expect, it } from 'vitest';
import { claimsFromRecord, DISCLOSABLE_CLAIMS, typeMetadata, vctUrl, type DiplomaClaims } from './claims.ts';
import { issueDiplomaSdJwt, presentDiplomaSdJwt, publicJwkOf, type PublicJwk, type RawEs256Signer } from './issue.ts';
import { carriesPrivateKey, PRIVATE_JWK_MEMBERS } from './public-jwk.ts';
import { MAX_SD_JWT_BYTES, verifyDiplomaSdJwt, type PublishedJwk } from './verify.ts';

const ISSUER = 'https://minepst.example.cd';
const VCT = vctUrl(ISSUER);

function nodeKey(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' }) as { x?: string; y?: string };
  const signer: RawEs256Signer = { kid, sign: async (data) => nodeSign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' }) };
  const published: PublishedJwk = { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y!, kid, alg: 'ES256', use: 'sig' };
  return { signer, published, privateKey };
}

const ministry = nodeKey('ministry-1');
const jwks = { keys: [ministry.published] };

const claims: DiplomaClaims = claimsFromRecord(
  {
    diploma_id: 'AAAAAAAAAAAAAAAAAAAAAA',
    serial: 'DE-2026-0000001-2',
    last_name: 'MUKENDI',
    middle_name: 'KABONGO',
    first_name: 'Grâce',
    birth_date: '2008-03-14',
    birth_place: 'Kananga',
    gender: 'F',
    option: 'Scientifique',
    option_code: 'SC',
    school: 'Lycée Lumière',
    school_code: 'LL01',
    centre: 'Institut St Joseph',
    centre_code: 'C12',
    educ_province: 'Kasaï-Central 1',
    educ_province_code: 'KC1',
    session: 'Juin 2026',
    session_year: 2026,
    percentage: 71.5,
    issue_date: '2026-07-20',
  },
  'diplome_etat',
);

const STATUS_URI = `${ISSUER}/status/token/1`;

/** A token status list as the platform publishes it: signed by the ministry's key, `sub` its address. */
async function statusListToken(revoked: number[], size = 1024) {
  const list = new StatusList(new Array(size).fill(0), 1);
  for (const index of revoked) list.setStatus(index, 1);
  const { header, payload } = createHeaderAndPayload(
    list,
    { iss: ISSUER, sub: STATUS_URI, iat: Math.floor(Date.now() / 1000) },
    { alg: 'ES256', typ: 'statuslist+jwt', kid: ministry.signer.kid },
  );
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const data = `${b64(header)}.${b64(payload)}`;
  const signature = Buffer.from(await ministry.signer.sign(new TextEncoder().encode(data))).toString('base64url');
  return `${data}.${signature}`;
}

async function issue(extra: { holderPublicJwk?: PublicJwk; idx?: number } = {}) {
  return issueDiplomaSdJwt({
    issuer: ISSUER,
    vct: VCT,
    claims,
    signer: ministry.signer,
    status: { idx: extra.idx ?? 7, uri: STATUS_URI },
    ...(extra.holderPublicJwk ? { holderPublicJwk: extra.holderPublicJwk } : {}),
  });
}

/** The OpenWallet Foundation's verifier, knowing nothing of this package: the issuer's key and a fetcher of the status list. */
async function thirdPartyVerifier(statusToken: string) {
  return new SDJwtVcInstance({
    hasher: digest,
    verifier: await ES256.getVerifier(ministry.published),
    statusListFetcher: async () => statusToken,
  });
}

const options = (statusToken: string) => ({ jwks, issuer: ISSUER, vcts: [VCT], fetchStatusList: async () => statusToken });

describe('diploma SD-JWT VC', () => {
  it('is verified by @sd-jwt/sd-jwt-vc: dc+sd-jwt, iss, vct, iat, status, personal claims disclosable and others plain', async () => {
    const credential = await issue();
    const verifier = await thirdPartyVerifier(await statusListToken([]));
    const { payload, header } = await verifier.verify(credential);
    expect(header).toMatchObject({ typ: 'dc+sd-jwt', alg: 'ES256', kid: 'ministry-1' });
    expect(payload).toMatchObject({
      iss: ISSUER,
      vct: VCT,
      status: { status_list: { idx: 7, uri: STATUS_URI } },
      family_name: 'MUKENDI',
      place_of_birth: 'Kananga',
      percentage: 71.5,
    });
    expect(typeof payload.iat).toBe('number');
    // Which claims are disclosures: every personal one, none of the others.
    const decoded = await verifier.decode(credential);
    const disclosed = decoded.disclosures?.map((d) => d.key).sort();
    expect(disclosed).toEqual([...DISCLOSABLE_CLAIMS].sort());
    const signedPayload = decoded.jwt!.payload as Record<string, unknown>;
    for (const plain of ['diploma_id', 'kind', 'session', 'serial']) expect(signedPayload[plain]).toBe((claims as unknown as Record<string, unknown>)[plain]);
    for (const personal of DISCLOSABLE_CLAIMS) expect(signedPayload[personal]).toBeUndefined();
    expect(signedPayload.candidate_code).toBeUndefined();
  });

  it('a presentation keeps only the chosen claims, with a key binding the third-party verifier accepts', async () => {
    const holder = await ES256.generateKeyPair();
    const credential = await issue({ holderPublicJwk: holder.publicKey });
    const holderSign = await ES256.getSigner(holder.privateKey);
    const presentation = await presentDiplomaSdJwt(credential, ['family_name', 'given_name', 'school'], {
      signer: { sign: async (data) => Buffer.from(await holderSign(new TextDecoder().decode(data)), 'base64url') },
      aud: 'https://university.example.be',
      nonce: 'n-0S6_WzA2Mj',
    });
    const verifier = new SDJwtVcInstance({
      hasher: digest,
      verifier: await ES256.getVerifier(ministry.published),
      kbVerifier: async (data, signature, payload) => (await ES256.getVerifier((payload.cnf as { jwk: object }).jwk))(data, signature),
      statusListFetcher: async () => statusListToken([]),
    });
    const { payload, kb } = await verifier.verify(presentation, { keyBindingNonce: 'n-0S6_WzA2Mj' });
    expect(kb?.payload.aud).toBe('https://university.example.be');
    expect(payload).toMatchObject({ family_name: 'MUKENDI', given_name: 'Grâce', school: 'Lycée Lumière', kind: 'diplome_etat', serial: 'DE-2026-0000001-2' });
    for (const hidden of ['place_of_birth', 'percentage', 'birthdate', 'gender', 'middle_name']) expect(payload).not.toHaveProperty(hidden);
    expect(presentation).not.toContain(Buffer.from('"Kananga"').toString('base64url').slice(0, 8));

    const ours = await verifyDiplomaSdJwt(presentation, { ...options(await statusListToken([])), keyBindingNonce: 'n-0S6_WzA2Mj' });
    expect(ours.verdict).toBe('valid');
    expect(ours.checks.find((c) => c.name === 'key_binding')).toMatchObject({ status: 'passed' });
    expect(ours.claims).not.toHaveProperty('place_of_birth');
    expect(ours.hiddenCount).toBe(DISCLOSABLE_CLAIMS.length - 3);
    // Another challenge: the key binding is refused.
    const replayed = await verifyDiplomaSdJwt(presentation, { ...options(await statusListToken([])), keyBindingNonce: 'other' });
    expect(replayed.verdict).toBe('invalid');
    expect(replayed.checks.find((c) => c.name === 'key_binding')).toMatchObject({ status: 'failed' });
  });

  it('verifies a credential with every check passed', async () => {
    const result = await verifyDiplomaSdJwt(await issue(), options(await statusListToken([3])));
    expect(result.verdict).toBe('valid');
    expect(result.checks.map((c) => [c.name, c.status])).toEqual([
      ['format', 'passed'],
      ['issuer', 'passed'],
      ['signature', 'passed'],
      ['disclosures', 'passed'],
      ['type', 'passed'],
      ['expiry', 'passed'],
      ['status', 'passed'],
    ]);
    expect(result.claims).toMatchObject({ family_name: 'MUKENDI', percentage: 71.5 });
  });

  it('refuses a changed disclosure and a changed payload (ours and the third-party verifier)', async () => {
    const credential = await issue();
    const parts = credential.split('~');
    const index = parts.findIndex((part, i) => i > 0 && Buffer.from(part, 'base64url').toString().includes('"percentage"'));
    const forgedDisclosure = Buffer.from(Buffer.from(parts[index]!, 'base64url').toString().replace('71.5', '91.5')).toString('base64url');
    const withForgedDisclosure = parts.map((part, i) => (i === index ? forgedDisclosure : part)).join('~');
    const ours = await verifyDiplomaSdJwt(withForgedDisclosure, options(await statusListToken([])));
    expect(ours.verdict).toBe('invalid');
    expect(ours.checks.find((c) => c.name === 'disclosures')).toMatchObject({ status: 'failed', code: 'disclosure_mismatch' });
    expect(ours.claims).toBeNull();

    const [h, p, s] = parts[0]!.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    payload.session = 'Juin 2025';
    const forgedJwt = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
    const withForgedPayload = [forgedJwt, ...parts.slice(1)].join('~');
    const result = await verifyDiplomaSdJwt(withForgedPayload, options(await statusListToken([])));
    expect(result.verdict).toBe('invalid');
    expect(result.checks.find((c) => c.name === 'signature')).toMatchObject({ status: 'failed', code: 'bad_signature' });
    await expect((await thirdPartyVerifier(await statusListToken([]))).verify(withForgedPayload)).rejects.toThrow();
  });

  it('detects a revoked credential through the token status list (and the third-party verifier does too)', async () => {
    const credential = await issue({ idx: 42 });
    const revokedList = await statusListToken([42]);
    const result = await verifyDiplomaSdJwt(credential, options(revokedList));
    expect(result.verdict).toBe('revoked');
    expect(result.checks.find((c) => c.name === 'status')).toMatchObject({ status: 'failed', code: 'revoked' });
    await expect((await thirdPartyVerifier(revokedList)).verify(credential)).rejects.toThrow(/Status is not valid/);
  });

  it('says the status could not be checked, never passed, when the list is unreachable or not the issuer’s', async () => {
    const credential = await issue();
    const unreachable = await verifyDiplomaSdJwt(credential, { ...options(''), fetchStatusList: async () => Promise.reject(new Error('ECONNREFUSED')) });
    expect(unreachable.verdict).toBe('incomplete');
    expect(unreachable.checks.find((c) => c.name === 'status')).toMatchObject({ status: 'unchecked', code: 'status_list_unreachable' });
    const other = nodeKey('ministry-1');
    const foreignList = await statusListToken([]);
    const resigned = await verifyDiplomaSdJwt(credential, { ...options(foreignList), statusJwks: { keys: [other.published] } });
    expect(resigned.checks.find((c) => c.name === 'status')).toMatchObject({ status: 'unchecked', code: 'status_list_invalid' });
    const noFetcher = await verifyDiplomaSdJwt(credential, { jwks, issuer: ISSUER });
    expect(noFetcher.checks.find((c) => c.name === 'status')?.status).toBe('unchecked');
  });

  it('refuses a look-alike issuer, an unknown key, another type, an expired token, a key retired before signing', async () => {
    const credential = await issue();
    const lookAlike = await verifyDiplomaSdJwt(credential, { ...options(await statusListToken([])), issuer: 'https://minepst.example.cd.evil.example' });
    expect(lookAlike.checks.find((c) => c.name === 'issuer')).toMatchObject({ status: 'failed', code: 'issuer_mismatch' });
    expect(lookAlike.verdict).toBe('invalid');

    const impostor = nodeKey('ministry-1');
    const forged = await issueDiplomaSdJwt({ issuer: ISSUER, vct: VCT, claims, signer: impostor.signer });
    expect((await verifyDiplomaSdJwt(forged, options(await statusListToken([])))).checks.find((c) => c.name === 'signature')?.status).toBe('failed');
    const unknownKid = await issueDiplomaSdJwt({ issuer: ISSUER, vct: VCT, claims, signer: { ...ministry.signer, kid: 'nope' } });
    expect((await verifyDiplomaSdJwt(unknownKid, options(''))).checks.find((c) => c.name === 'signature')).toMatchObject({ status: 'failed', code: 'unknown_key' });

    const otherType = await verifyDiplomaSdJwt(credential, { ...options(await statusListToken([])), vcts: [`${ISSUER}/vct/other`] });
    expect(otherType.checks.find((c) => c.name === 'type')).toMatchObject({ status: 'failed' });

    const later = await verifyDiplomaSdJwt(credential, { ...options(await statusListToken([])), now: Math.floor(Date.now() / 1000) + 10 });
    expect(later.verdict).toBe('valid');
    const retired = await verifyDiplomaSdJwt(credential, {
      ...options(await statusListToken([])),
      jwks: { keys: [{ ...ministry.published, retired_at: new Date(Date.now() - 86_400_000).toISOString() }] },
    });
    expect(retired.checks.find((c) => c.name === 'signature')).toMatchObject({ status: 'failed', code: 'key_retired' });
  });

  it('refuses what is too large or not an SD-JWT before parsing it', async () => {
    const huge = `${'a'.repeat(MAX_SD_JWT_BYTES)}.b.c~`;
    expect((await verifyDiplomaSdJwt(huge, options(''))).checks[0]).toMatchObject({ name: 'format', code: 'too_large' });
    expect((await verifyDiplomaSdJwt('hello~', options(''))).checks[0]).toMatchObject({ name: 'format', code: 'malformed' });
    // A payload nested deeply is refused before it is walked.
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    const deep = `{"iss":"${ISSUER}","vct":"${VCT}","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const nested = `${b64('{"typ":"dc+sd-jwt","alg":"ES256","kid":"ministry-1"}')}.${b64(deep)}.c2ln~`;
    expect((await verifyDiplomaSdJwt(nested, options(''))).checks[0]).toMatchObject({ name: 'format', code: 'malformed' });
    const jwtOnly = (await issue()).split('~')[0]!;
    expect((await verifyDiplomaSdJwt(jwtOnly, options(''))).verdict).toBe('invalid');
  });

  it('accepts the older typ vc+sd-jwt (drafts before -06) as well as dc+sd-jwt, and nothing else', async () => {
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const resigned = async (typ: string) => {
      const [jwt, ...rest] = (await issue()).split('~');
      const [, p] = jwt!.split('.');
      const input = `${b64({ alg: 'ES256', typ, kid: 'ministry-1' })}.${p}`;
      const signature = Buffer.from(await ministry.signer.sign(new TextEncoder().encode(input))).toString('base64url');
      return [`${input}.${signature}`, ...rest].join('~');
    };
    const older = await verifyDiplomaSdJwt(await resigned('vc+sd-jwt'), options(await statusListToken([])));
    expect(older.verdict).toBe('valid');
    const other = await verifyDiplomaSdJwt(await resigned('JWT'), options(await statusListToken([])));
    expect(other.checks[0]).toMatchObject({ name: 'format', status: 'failed', code: 'malformed' });
  });

  it('publishes type metadata naming every claim, personal ones always disclosable', () => {
    const metadata = typeMetadata(ISSUER, { fr: 'Ministère', en: 'Ministry' });
    expect(metadata.vct).toBe(VCT);
    expect(metadata.claims.find((c) => c.path[0] === 'place_of_birth')).toMatchObject({ sd: 'always' });
    expect(metadata.claims.find((c) => c.path[0] === 'serial')).toMatchObject({ sd: 'never' });
  });
});

describe('key binding: the holder’s signature is its own check, never the issuer’s', () => {
  const NONCE = 'n-0S6_WzA2Mj';
  const AUD = 'https://university.example.be';
  const signerOf = async (privateKey: object) => {
    const sign = await ES256.getSigner(privateKey);
    return { sign: async (data: Uint8Array) => Buffer.from(await sign(new TextDecoder().decode(data)), 'base64url') };
  };
  async function bound() {
    const holder = await ES256.generateKeyPair();
    const credential = await issue({ holderPublicJwk: holder.publicKey });
    return { holder, credential };
  }
  const keyBinding = (result: Awaited<ReturnType<typeof verifyDiplomaSdJwt>>) => result.checks.find((c) => c.name === 'key_binding');
  const signature = (result: Awaited<ReturnType<typeof verifyDiplomaSdJwt>>) => result.checks.find((c) => c.name === 'signature');

  it('a key-binding JWT signed by another key than cnf: key binding failed (wrong key), the issuer signature passed', async () => {
    const { credential } = await bound();
    const stranger = await ES256.generateKeyPair();
    const presentation = await presentDiplomaSdJwt(credential, ['family_name'], { signer: await signerOf(stranger.privateKey), aud: AUD, nonce: NONCE });
    for (const extra of [{}, { keyBindingNonce: NONCE }]) {
      const result = await verifyDiplomaSdJwt(presentation, { ...options(await statusListToken([])), ...extra });
      expect(result.verdict).toBe('invalid');
      expect(signature(result)).toMatchObject({ status: 'passed', code: 'signature_valid' });
      expect(keyBinding(result)).toMatchObject({ status: 'failed', code: 'key_binding_wrong_key' });
    }
  });

  it('another nonce, another audience, another presentation (sd_hash): each its own code, the issuer signature passed', async () => {
    const { holder, credential } = await bound();
    const signer = await signerOf(holder.privateKey);
    const presentation = await presentDiplomaSdJwt(credential, ['family_name'], { signer, aud: AUD, nonce: NONCE });
    const list = await statusListToken([]);
    const nonce = await verifyDiplomaSdJwt(presentation, { ...options(list), keyBindingNonce: 'another' });
    expect(signature(nonce)?.status).toBe('passed');
    expect(keyBinding(nonce)).toMatchObject({ status: 'failed', code: 'key_binding_nonce' });
    const audience = await verifyDiplomaSdJwt(presentation, { ...options(list), keyBindingNonce: NONCE, keyBindingAudience: 'https://other.example' });
    expect(keyBinding(audience)).toMatchObject({ status: 'failed', code: 'key_binding_audience' });
    // The key-binding JWT of a presentation disclosing one claim, moved onto one disclosing two.
    const wider = await presentDiplomaSdJwt(credential, ['family_name', 'school'], { signer, aud: AUD, nonce: NONCE });
    const moved = `${wider.slice(0, wider.lastIndexOf('~') + 1)}${presentation.slice(presentation.lastIndexOf('~') + 1)}`;
    const sdHash = await verifyDiplomaSdJwt(moved, { ...options(list), keyBindingNonce: NONCE });
    expect(signature(sdHash)?.status).toBe('passed');
    expect(keyBinding(sdHash)).toMatchObject({ status: 'failed', code: 'key_binding_sd_hash' });
    const good = await verifyDiplomaSdJwt(presentation, { ...options(list), keyBindingNonce: NONCE, keyBindingAudience: AUD });
    expect(good.verdict).toBe('valid');
    expect(keyBinding(good)).toMatchObject({ status: 'passed', code: 'key_binding_valid' });
  });

  it('without a key-binding JWT: said (possession not proven) without changing a public check’s verdict; missing when a challenge was sent', async () => {
    const { credential } = await bound();
    const list = await statusListToken([]);
    const shown = await verifyDiplomaSdJwt(credential, options(list));
    expect(shown.verdict).toBe('valid');
    expect(keyBinding(shown)).toMatchObject({ status: 'unchecked', code: 'key_binding_not_presented' });
    const challenged = await verifyDiplomaSdJwt(credential, { ...options(list), keyBindingNonce: NONCE });
    expect(challenged.verdict).toBe('invalid');
    expect(keyBinding(challenged)).toMatchObject({ status: 'failed', code: 'key_binding_missing' });
    // A credential bound to no key says nothing of a key binding.
    expect(keyBinding(await verifyDiplomaSdJwt(await issue(), options(list)))).toBeUndefined();
  });
});

describe('a holder key must be public (ADR 0146, amendment of 2026-11-27)', () => {
  /** A value for each private member: base64url text, or for `oth` the list of other primes' info. */
  const privateValue = (member: string) => (member === 'oth' ? [{ r: 'AQAB', d: 'AQAB', t: 'AQAB' }] : 'AQAB');
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signerOf = async (privateKey: object) => {
    const sign = await ES256.getSigner(privateKey);
    return { sign: async (data: Uint8Array) => Buffer.from(await sign(new TextDecoder().decode(data)), 'base64url') };
  };
  /** The credential issued to the holder's public key, its `cnf.jwk` then given extra members and signed again by the ministry. */
  async function boundTo(holderPublicJwk: PublicJwk, extra: Record<string, unknown>) {
    const [jwt, ...rest] = (await issue({ holderPublicJwk })).split('~');
    const [h, p] = jwt!.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString('utf8')) as { cnf: { jwk: Record<string, unknown> } };
    payload.cnf.jwk = { ...payload.cnf.jwk, ...extra };
    const input = `${h}.${b64(payload)}`;
    const signature = Buffer.from(await ministry.signer.sign(new TextEncoder().encode(input))).toString('base64url');
    return [`${input}.${signature}`, ...rest].join('~');
  }

  it('carriesPrivateKey: each private member of RFC 7518 and 8037, whatever its value; the public members are not', () => {
    expect(PRIVATE_JWK_MEMBERS).toEqual(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']);
    const publicKey = { kty: 'EC', crv: 'P-256', x: 'AQAB', y: 'AQAB', kid: '1', alg: 'ES256', use: 'sig', key_ops: ['verify'] };
    expect(carriesPrivateKey(publicKey)).toBe(false);
    expect(carriesPrivateKey({ kty: 'RSA', n: 'AQAB', e: 'AQAB' })).toBe(false);
    for (const member of PRIVATE_JWK_MEMBERS) {
      expect(carriesPrivateKey({ ...publicKey, [member]: privateValue(member) }), member).toBe(true);
      expect(carriesPrivateKey({ ...publicKey, [member]: '' }), `${member} empty`).toBe(true);
    }
    expect(carriesPrivateKey({ kty: 'oct', k: 'AQAB' })).toBe(true);
  });

  it('issuance refuses a holder key with any private member, and binds a public one', async () => {
    const holder = await ES256.generateKeyPair();
    for (const member of PRIVATE_JWK_MEMBERS) {
      await expect(issue({ holderPublicJwk: { ...holder.publicKey, [member]: privateValue(member) } as PublicJwk }), member).rejects.toThrow(
        'holder key: the JWK carries private key material',
      );
    }
    await expect(issue({ holderPublicJwk: holder.privateKey as PublicJwk })).rejects.toThrow('private key material');
    expect(publicJwkOf(holder.publicKey as PublicJwk)).toEqual({ kty: 'EC', crv: 'P-256', x: holder.publicKey.x, y: holder.publicKey.y });
  });

  it('verification: a key binding by a cnf.jwk that carries any private member is invalid, the issuer signature passed; the same key public is valid', async () => {
    const holder = await ES256.generateKeyPair();
    const signer = await signerOf(holder.privateKey);
    const list = await statusListToken([]);
    const keyBinding = (result: Awaited<ReturnType<typeof verifyDiplomaSdJwt>>) => result.checks.find((c) => c.name === 'key_binding');
    for (const member of PRIVATE_JWK_MEMBERS) {
      // `d` is the holder's real one: its signature would verify, and still proves nothing.
      const value = member === 'd' ? (holder.privateKey as { d: string }).d : privateValue(member);
      const presentation = await presentDiplomaSdJwt(await boundTo(holder.publicKey as PublicJwk, { [member]: value }), ['family_name'], { signer, aud: 'a', nonce: 'n' });
      const result = await verifyDiplomaSdJwt(presentation, { ...options(list), keyBindingNonce: 'n' });
      expect(result.verdict, member).toBe('invalid');
      expect(
        result.checks.find((c) => c.name === 'signature'),
        member,
      ).toMatchObject({ status: 'passed' });
      expect(keyBinding(result), member).toEqual({
        name: 'key_binding',
        status: 'failed',
        code: 'key_binding_invalid',
        detail: 'the holder key the credential names (cnf.jwk) carries private key material',
      });
    }
    const good = await verifyDiplomaSdJwt(await presentDiplomaSdJwt(await boundTo(holder.publicKey as PublicJwk, {}), ['family_name'], { signer, aud: 'a', nonce: 'n' }), {
      ...options(list),
      keyBindingNonce: 'n',
    });
    expect(good.verdict).toBe('valid');
    expect(keyBinding(good)).toMatchObject({ status: 'passed', code: 'key_binding_valid' });
  });
});
