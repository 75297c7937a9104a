import { generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { issueDiplomaSdJwt, presentDiplomaSdJwt, vctUrl } from '@sceau/sd-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import { buildApp, type App } from '../../app.ts';
import { createServices, type Services } from '../../services.ts';
import type { DiplomaFixture } from '../candidate-check/public-diploma-fixtures.ts';
import { issuedDiplomas } from '../holder/holder-test-support.ts';
import { MAX_PORTABLE_BYTES } from './portable-verification.ts';

// ADR 0145: the upload of /verification takes an SD-JWT VC and a W3C VC besides the PDF.

const PUBLIC_URL = 'https://diplomes.example.cd';

let ctx: ChainTestContext;
let services: Services;
let app: App;
let valid: DiplomaFixture;
let revoked: DiplomaFixture;

beforeAll(async () => {
  ctx = await createChainTestApp({ PUBLIC_URL });
  services = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain: ctx.chain } });
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  [valid, revoked] = await issuedDiplomas(ctx.db, services.storage, ['valid', 'revoked']);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await ctx?.close();
});

function upload(content: string, name: string, locale: 'fr' | 'en' = 'en') {
  const boundary = '----sceau-portable';
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="cert_document"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return app.inject({
    method: 'POST',
    url: '/api/generations/verify',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-locale': locale },
    payload: body,
  });
}

type Answer = {
  data: { verdict: string; source: string; checks: { name: string; status: string; code: string; title: string; message: string }[]; diploma: Record<string, unknown> | null };
};

describe('verification of the portable forms', () => {
  it("an SD-JWT VC of the platform: authentic, its checks named and translated, the revocation read from the platform's status list", async () => {
    const credential = await services.sdJwtVc!.issue(valid.id);
    const res = await upload(credential, 'diplome.sd-jwt', 'fr');
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as Answer;
    expect(data.source).toBe('sd-jwt');
    expect(data.verdict).toBe('authentic');
    expect(data.checks.map((c) => `${c.name}:${c.status}`)).toEqual([
      'integrity:passed',
      'issuer_signature:passed',
      'issuer_identity:passed',
      'credential_type:passed',
      'validity_period:passed',
      'not_revoked:passed',
    ]);
    // Every text is in the catalogue (a missing key would come back as the key itself).
    for (const check of data.checks) {
      expect(check.title).not.toMatch(/^verification:|^check\./);
      expect(check.message).not.toMatch(/^verification:|^code\./);
    }
    expect(data.checks.find((c) => c.name === 'not_revoked')?.message).toBe("Le diplôme n'a pas été révoqué.");
    expect(data.diploma).toMatchObject({ id: valid.id, last_name: 'MUKENDI', percentage: 71.5 });

    const pasted = await upload(`  ${credential}\n`, 'pasted.txt');
    expect((pasted.json() as Answer).data.verdict).toBe('authentic');
  });

  it('a presentation hiding the birth place and percentage: authentic, the hidden claims named', async () => {
    const shown = await presentDiplomaSdJwt(await services.sdJwtVc!.issue(valid.id), ['family_name', 'given_name', 'school']);
    const { data } = (await upload(shown, 'diplome.sd-jwt')).json() as Answer;
    expect(data.verdict).toBe('authentic');
    expect(data.diploma).not.toHaveProperty('percentage');
    expect(data.diploma?.hidden_fields).toEqual(expect.arrayContaining(['birth_place', 'percentage']));
  });

  it('a revoked diploma is revoked in its SD-JWT VC and its VC', async () => {
    const sdJwt = (await upload(await services.sdJwtVc!.issue(revoked.id), 'diplome.sd-jwt')).json() as Answer;
    expect(sdJwt.data.verdict).toBe('revoked');
    expect(sdJwt.data.checks.find((c) => c.name === 'not_revoked')).toMatchObject({ status: 'failed', code: 'diploma_revoked' });
    const vc = (await upload(JSON.stringify(await services.vc.issue(revoked.id)), 'diplome.json')).json() as Answer;
    expect(vc.data.source).toBe('vc');
    expect(vc.data.verdict).toBe('revoked');
  });

  it('a W3C VC of the platform: authentic; changed: altered', async () => {
    const credential = (await services.vc.issue(valid.id)) as Record<string, unknown> & { credentialSubject: { name: string } };
    const { data } = (await upload(JSON.stringify(credential), 'diplome.json')).json() as Answer;
    expect(data.verdict).toBe('authentic');
    expect(data.checks.map((c) => c.name)).toEqual(['issuer_signature', 'issuer_identity', 'validity_period', 'not_revoked']);
    credential.credentialSubject.name = 'Quelqu’un d’autre';
    expect(((await upload(JSON.stringify(credential), 'diplome.json')).json() as Answer).data.verdict).toBe('altered');
  });

  it('a look-alike issuer, or another key claiming the platform, is refused: altered', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const signer = { kid: ctx.keys.active.kid, sign: async (data: Uint8Array) => new Uint8Array(nodeSign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' })) };
    const claims = {
      diploma_id: valid.id,
      kind: 'diplome_etat' as const,
      session: 'Juin 2026',
      session_year: 2026,
      issue_date: '2026-07-20',
      family_name: 'X',
      given_name: 'Y',
      birthdate: '2008-01-01',
      place_of_birth: 'Z',
      gender: 'M' as const,
      option: 'O',
      option_code: 'O',
      school: 'S',
      school_code: 'S',
      centre: 'C',
      centre_code: 'C',
      province: 'P',
      province_code: 'P',
      percentage: 99,
    };
    const lookAlike = 'https://diplomes.example.cd.example.net';
    const foreign = await issueDiplomaSdJwt({ issuer: lookAlike, vct: vctUrl(lookAlike), claims, signer });
    const answer = (await upload(foreign, 'diplome.sd-jwt')).json() as Answer;
    expect(answer.data.verdict).toBe('altered');
    expect(answer.data.checks.find((c) => c.name === 'issuer_identity')).toMatchObject({ status: 'failed', code: 'issuer_mismatch' });
    expect(answer.data.diploma).toBeNull();
    const forged = await issueDiplomaSdJwt({ issuer: PUBLIC_URL, vct: vctUrl(PUBLIC_URL), claims, signer });
    const refused = (await upload(forged, 'diplome.sd-jwt')).json() as Answer;
    expect(refused.data.verdict).toBe('altered');
    expect(refused.data.checks.find((c) => c.name === 'issuer_signature')?.status).toBe('failed');
  });

  it('refuses a portable form past 256 KB before parsing it, with a translated error', async () => {
    const huge = `${(await services.sdJwtVc!.issue(valid.id)).slice(0, -1)}${'~AAAA'.repeat(MAX_PORTABLE_BYTES / 5)}~`;
    const fr = await upload(huge, 'diplome.sd-jwt', 'fr');
    expect(fr.statusCode).toBe(422);
    expect(fr.json().errors.cert_document).toEqual(['Ce justificatif dépasse 256 Ko : il ne peut pas être vérifié.']);
    const en = await upload(`{"@context":["https://www.w3.org/ns/credentials/v2"],"type":["VerifiableCredential"],"x":"${'a'.repeat(MAX_PORTABLE_BYTES)}"}`, 'diplome.json');
    expect(en.statusCode).toBe(422);
    expect(en.json().errors.cert_document).toEqual(['This credential is larger than 256 KB: it cannot be verified.']);
  });

  it('keeps the platform credential document and other uploads on their usual path', async () => {
    const res = await upload('{"version":"sceau-credential/2"}', 'diplome.json');
    expect(res.statusCode).toBe(200);
    expect((res.json() as Answer).data.source).toBe('credential');
  });
});
