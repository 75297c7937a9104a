// The seal recorded at issuance (ADR 0154): issuance seals each diploma with its public credential;
// a verification by id of a sealed row answers the same bytes as the full check, and anything
// changed under a seal, a seal of another key or no seal at all gets the full check.
import { publicCredential, type CredentialDocument } from '@sceau/credential';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTwoCandidateBatch } from '../../../test/batches.ts';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import { buildApp, type App } from '../../app.ts';
import { diplomas } from '../../db/schema.ts';
import { sealMismatches } from '../../prometheus/metrics.ts';
import { seedDemoBatch } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { loadSealKey, readSeal, sealDiplomas, sealKey, sealOf, type SealKey } from './verification-seal.ts';

let ctx: ChainTestContext;
let services: Services;
let app: App;
let key: SealKey;
/** The published batch's diplomas, and a batch whose credentials are written but not anchored. */
let ids: string[];
let pendingIds: string[];
const warnings: Array<{ details: object; message: string }> = [];

beforeAll(async () => {
  ctx = await createChainTestApp({ PUBLIC_URL: 'http://diplomes.test' });
  // A logger that keeps its warnings (pino's signature, for the two calls made here).
  const log = { info: () => {}, warn: (details: object, message?: string) => void warnings.push({ details, message: message ?? '' }) } as never;
  services = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain: ctx.chain }, log });
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  const batchId = await seedDemoBatch(ctx.db, services.storage, services.issuing!);
  ids = (await ctx.db.select({ id: diplomas.id }).from(diplomas).where(eq(diplomas.generationId, batchId)).orderBy(diplomas.id)).map((r) => r.id);
  const pending = await insertTwoCandidateBatch(ctx.db, { status: 'in_progress', codeBase: 20269800000000 });
  await (services.issuing as unknown as { writeCredentials(id: number): Promise<void> }).writeCredentials(pending.batchId);
  pendingIds = (await ctx.db.select({ id: diplomas.id }).from(diplomas).where(eq(diplomas.generationId, pending.batchId))).map((r) => r.id);
  key = await loadSealKey(ctx.config.verificationSeal);
}, 180_000);
afterAll(async () => {
  await app?.close();
  await ctx?.close();
});

interface Row {
  id: string;
  credential: string;
  seal: Buffer | null;
  public_credential: string | null;
  target_hash: string;
}
async function rowOf(id: string): Promise<Row> {
  const { rows } = await ctx.db.execute<Row & Record<string, unknown>>(
    sql`select id, credential::text as credential, seal, public_credential, target_hash from diplomas where id = ${id}`,
  );
  return rows[0]!;
}
async function setRow(id: string, values: { credential?: string; seal?: Buffer | null; publicCredential?: string | null }) {
  if (values.credential !== undefined) await ctx.db.execute(sql`update diplomas set credential = ${values.credential}::jsonb where id = ${id}`);
  if (values.seal !== undefined || values.publicCredential !== undefined) {
    await ctx.db
      .update(diplomas)
      .set({ ...(values.seal !== undefined ? { seal: values.seal } : {}), ...(values.publicCredential !== undefined ? { publicCredential: values.publicCredential } : {}) })
      .where(eq(diplomas.id, id));
  }
}

/** The answer by id, computed now (no cached answer), in a language. */
async function coldAnswer(id: string, locale: 'fr' | 'en'): Promise<string> {
  // Every kept answer dropped (an answer that failed its integrity check names no hash to drop it by).
  (services.verification as unknown as { cache: { clear(): void } }).cache.clear();
  expect(services.verification!.isCached({ diplomaId: id })).toBe(false);
  const res = await app.inject({ method: 'GET', url: `/api/verify/${id}`, headers: { 'x-locale': locale } });
  expect(res.statusCode).toBe(200);
  return res.body;
}
const verdictOf = (body: string) => (JSON.parse(body) as { data: { verdict: string } }).data.verdict;
const integrityOf = (body: string) => (JSON.parse(body) as { data: { checks: Array<{ name: string; code: string }> } }).data.checks.find((c) => c.name === 'integrity')!.code;
const mismatches = async () => (await sealMismatches.get()).values[0]?.value ?? 0;

/** A credential's text with one record field changed, as PostgreSQL gives it back. */
async function changedCredential(id: string, field: string, value: string): Promise<string> {
  const { rows } = await ctx.db.execute<{ text: string }>(
    sql`select jsonb_set(credential, ${`{record,${field}}`}::text[], to_jsonb(${value}::text))::text as text from diplomas where id = ${id}`,
  );
  return rows[0]!.text;
}

describe('sealing at issuance', () => {
  it('seals every diploma with its public credential, the full check having passed (published and not yet published)', async () => {
    for (const id of [...ids, ...pendingIds]) {
      const row = await rowOf(id);
      expect(row.seal, id).not.toBeNull();
      const parsed = JSON.parse(row.credential) as CredentialDocument;
      expect(row.public_credential).toBe(JSON.stringify(publicCredential(parsed)));
      expect(readSeal(key, row.seal, id, row.credential, row.public_credential)).toBe('valid');
    }
  });
});

describe('verification by id of a sealed row', () => {
  it('takes the seal: a row changed and sealed again under the key reads as it was sealed (so the seal is what was used)', async () => {
    const id = ids[5]!;
    const before = await rowOf(id);
    try {
      const text = await changedCredential(id, 'birth_place', 'Ailleurs');
      const publicText = JSON.stringify(publicCredential(JSON.parse(text) as CredentialDocument));
      await setRow(id, { credential: text, seal: sealOf(key, id, text, publicText), publicCredential: publicText });
      expect(verdictOf(await coldAnswer(id, 'en'))).toBe('authentic');
      // The same row without its seal: checked in full, refused.
      await setRow(id, { seal: null });
      const full = await coldAnswer(id, 'en');
      expect(verdictOf(full)).toBe('altered');
      expect(integrityOf(full)).toBe('target_hash_mismatch');
    } finally {
      await setRow(id, { credential: before.credential, seal: before.seal, publicCredential: before.public_credential });
    }
  });

  it('answers byte for byte what the full check answers, in both languages: authentic, unpublished, revoked', async () => {
    const authentic = ids[0]!;
    const revoked = ids[1]!;
    await ctx.chain.registry.revoke(`0x${(await rowOf(revoked)).target_hash}`, 'Fraude constatée');
    const cases: Array<[string, string]> = [
      [authentic, 'authentic'],
      [pendingIds[0]!, 'unpublished'],
      [revoked, 'revoked'],
    ];
    for (const [id, verdict] of cases) {
      const row = await rowOf(id);
      for (const locale of ['fr', 'en'] as const) {
        const sealed = await coldAnswer(id, locale);
        await setRow(id, { seal: null });
        try {
          const full = await coldAnswer(id, locale);
          expect(verdictOf(sealed)).toBe(verdict);
          expect(sealed).toBe(full);
        } finally {
          await setRow(id, { seal: row.seal });
        }
      }
    }
  });

  it('a credential changed in the database under its old seal: checked in full, not authentic, counted and logged once', async () => {
    const id = ids[2]!;
    const before = await rowOf(id);
    const counted = await mismatches();
    try {
      await setRow(id, { credential: await changedCredential(id, 'last_name', 'Faussaire') });
      const first = await coldAnswer(id, 'fr');
      expect(verdictOf(first)).toBe('altered');
      expect(integrityOf(first)).toBe('target_hash_mismatch');
      expect(await mismatches()).toBe(counted + 1);
      expect(verdictOf(await coldAnswer(id, 'en'))).toBe('altered');
      expect(await mismatches()).toBe(counted + 2);
      expect(warnings.filter((w) => (w.details as { diplomaId?: string }).diplomaId === id)).toHaveLength(1);
    } finally {
      await setRow(id, { credential: before.credential });
    }
    expect(readSeal(key, (await rowOf(id)).seal, id, (await rowOf(id)).credential, before.public_credential)).toBe('valid');
  });

  it('a public credential changed under its old seal: checked in full, and the right public credential answered', async () => {
    const id = ids[3]!;
    const before = await rowOf(id);
    const counted = await mismatches();
    const forged = JSON.parse(before.public_credential!) as CredentialDocument;
    forged.record.last_name = 'Faussaire';
    try {
      await setRow(id, { publicCredential: JSON.stringify(forged) });
      const body = JSON.parse(await coldAnswer(id, 'en')) as { data: { verdict: string; credential: CredentialDocument } };
      expect(body.data.verdict).toBe('authentic');
      expect(JSON.stringify(body.data.credential)).toBe(before.public_credential);
      expect(await mismatches()).toBe(counted + 1);
    } finally {
      await setRow(id, { publicCredential: before.public_credential });
    }
  });

  it('a seal made under another key, and no seal at all: checked in full (a changed credential is refused), not counted', async () => {
    const id = ids[4]!;
    const before = await rowOf(id);
    const counted = await mismatches();
    const otherKey = sealKey(Buffer.alloc(32, 9));
    try {
      const text = await changedCredential(id, 'first_name', 'Autre');
      const publicText = JSON.stringify(publicCredential(JSON.parse(text) as CredentialDocument));
      await setRow(id, { credential: text, seal: sealOf(otherKey, id, text, publicText), publicCredential: publicText });
      expect(integrityOf(await coldAnswer(id, 'en'))).toBe('target_hash_mismatch');
      await setRow(id, { seal: null, publicCredential: null });
      expect(integrityOf(await coldAnswer(id, 'en'))).toBe('target_hash_mismatch');
      expect(await mismatches()).toBe(counted);
    } finally {
      await setRow(id, { credential: before.credential, seal: before.seal, publicCredential: before.public_credential });
    }
  });
});

describe('sealing diplomas issued before seals (npm run diplomas:seal)', () => {
  it("seals the rows without a seal or with another key's, each checked in full first; a tampered row is left unsealed and reported; idempotent", async () => {
    const [bare, otherKeys, tampered] = [ids[6]!, ids[7]!, pendingIds[1]!];
    const expected = await Promise.all([bare, otherKeys].map(rowOf));
    const tamperedBefore = await rowOf(tampered);
    try {
      await setRow(bare, { seal: null, publicCredential: null });
      await setRow(otherKeys, { seal: sealOf(sealKey(Buffer.alloc(32, 3)), otherKeys, expected[1]!.credential, expected[1]!.public_credential!) });
      await setRow(tampered, { credential: await changedCredential(tampered, 'last_name', 'Faussaire'), seal: null, publicCredential: null });

      const total = ids.length + pendingIds.length;
      const chunks: number[] = [];
      const report = await sealDiplomas(ctx.db, key, { chunk: 4, onChunk: (r) => chunks.push(r.read) });
      expect(report.read).toBeGreaterThanOrEqual(total);
      expect(chunks.length).toBeGreaterThan(1);
      expect(report.sealed).toBe(2);
      expect(report.failed).toEqual([{ id: tampered, problem: expect.stringMatching(/^target-hash/) }]);
      expect(report.alreadySealed).toBe(report.read - 3);
      for (const [n, id] of [bare, otherKeys].entries()) {
        const row = await rowOf(id);
        expect(row.public_credential).toBe(expected[n]!.public_credential);
        expect(readSeal(key, row.seal, id, row.credential, row.public_credential)).toBe('valid');
        expect(row.seal!.equals(expected[n]!.seal!)).toBe(true);
      }
      expect((await rowOf(tampered)).seal).toBeNull();
      expect(verdictOf(await coldAnswer(tampered, 'en'))).toBe('altered');

      const again = await sealDiplomas(ctx.db, key, { chunk: 100 });
      expect(again).toMatchObject({ read: report.read, sealed: 0, alreadySealed: report.read - 1, failed: [{ id: tampered }] });
      // Resumable: from past an id on.
      const rest = await sealDiplomas(ctx.db, key, { after: ids[ids.length - 2]! });
      expect(rest.read).toBeLessThan(report.read);
    } finally {
      await setRow(tampered, { credential: tamperedBefore.credential, seal: tamperedBefore.seal, publicCredential: tamperedBefore.public_credential });
    }
  });
});
