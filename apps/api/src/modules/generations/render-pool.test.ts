import {
  createCertificateRevocationList,
  createDevelopmentPki,
  createDevelopmentTsa,
  diplomeEtatTemplate,
  extractAttachment,
  preparePhoto,
  verifyDocumentTimestamps,
  verifyPdfSignature,
} from '@sceau/pdf';
import { pdfTextString } from '@sceau/pdf/pdf-syntax';
import { createTestPhoto, createTestSignatureImages, testCredentialJson, testFields, testOfflinePayload } from '@sceau/pdf/test-fixtures';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LocalFileStorage } from '../../lib/storage.ts';
import { RenderError, RenderPool, type RenderJob, type RenderSetup, type WorkerFiles } from './render-pool.ts';

let setup: RenderSetup;
let photo: Uint8Array;
const pools: RenderPool[] = [];

function newPool(...args: ConstructorParameters<typeof RenderPool>): RenderPool {
  const pool = new RenderPool(...args);
  pools.push(pool);
  return pool;
}

function job(i: number): RenderJob {
  const fields = testFields({ name: `Ngalula Kabamba Élodie ${i}`, diplomaNumber: `DE-${i}` });
  return {
    fields,
    photo: new Uint8Array(photo),
    qr: { verifyUrl: `https://sceau.example/verify/${i}`, offlinePayload: testOfflinePayload() },
    credentialJson: testCredentialJson(fields),
  };
}

beforeAll(async () => {
  const pki = await createDevelopmentPki();
  // PAdES B-LTA with a local TSA issued by the same development CA (ADR 0135).
  const ca = { certificatePem: pki.caCertificatePem, privateKeyPem: pki.caPrivateKeyPem };
  const tsa = await createDevelopmentTsa({ ca });
  const crl = await createCertificateRevocationList({ ca, revoked: [], thisUpdate: new Date(), nextUpdate: new Date(Date.now() + 86400e3), crlNumber: 1 });
  setup = {
    key: 'test-1',
    template: diplomeEtatTemplate,
    signatureImages: await createTestSignatureImages(),
    signer: { privateKeyPem: pki.signingPrivateKeyPem, certificateChainDer: pki.certificateChainDer },
    longTerm: {
      id: 'test-tsa',
      tsa: { kind: 'local', privateKeyPem: tsa.privateKeyPem, certificateChainDer: tsa.certificateChainDer },
      validation: { certificates: [...pki.certificateChainDer, tsa.certificateDer], crls: [crl] },
    },
  };
  photo = await preparePhoto(await createTestPhoto(1), diplomeEtatTemplate.photo);
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

describe('the render pool', () => {
  it('renders and signs on several worker threads, each PDF intact, its hash given', async () => {
    const pool = newPool({ size: 2 });
    await pool.start();
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => pool.render(setup, job(i))));
    expect(pool.stats).toMatchObject({ documents: 24, failed: 0, crashes: 0 });
    for (const [i, { pdf, sha256 }] of results.entries()) {
      expect(pdf.byteOffset).toBe(0);
      expect(pdf.byteLength).toBe(pdf.buffer.byteLength); // transferred, not a view on a shared buffer
      expect(sha256).toBe(createHash('sha256').update(pdf).digest('hex'));
      if (i % 8 === 0) {
        // Signed, then the DSS and the document time-stamp after it (PAdES B-LTA).
        expect(verifyPdfSignature(pdf)).toMatchObject({ intact: true, coversWholeFile: false });
        expect(verifyPdfSignature(pdf).signatureTimestamp).toBeTruthy();
        expect(verifyDocumentTimestamps(pdf)).toMatchObject([{ ok: true, coveredLength: pdf.length }]);
        const attached = JSON.parse(new TextDecoder().decode((await extractAttachment(pdf, 'credential.json'))!));
        expect(attached).toBeTruthy();
      }
    }
  }, 60_000);

  it('reads the printed fields from the credential when none are given, and attaches it compact', async () => {
    const pool = newPool({ size: 1 });
    const record = {
      diploma_id: 'q3Yb1mJk2Vx8Zr4tN6pL0w',
      candidate_code: '20260000000042',
      last_name: 'Ngalula',
      middle_name: 'Kabamba',
      first_name: 'Élodie',
      birth_date: '2007-01-09',
      birth_place: 'Matadi',
      option: 'Littéraire',
      school: 'Complexe scolaire Lumière',
      centre: 'Centre Funa 1',
      educ_province: 'Kinshasa-Funa',
      session_year: 2026,
      percentage: 72.5,
      issue_date: '2026-07-01',
    };
    // As PostgreSQL prints a jsonb: spaces after separators.
    const text = JSON.stringify({ record, salts: { last_name: 'ab' } })
      .replaceAll('","', '", "')
      .replaceAll('":', '": ');
    const { pdf } = await pool.renderFromCredential(setup, {
      photo: new Uint8Array(photo),
      qr: { verifyUrl: 'https://sceau.example/verify/x', offlinePayload: testOfflinePayload() },
      credentialJson: new TextEncoder().encode(text),
    });
    const attached = new TextDecoder().decode((await extractAttachment(pdf, 'credential.json'))!);
    expect(attached).toBe(JSON.stringify(JSON.parse(text)));
    const raw = Buffer.from(pdf).toString('latin1');
    // The document's title and subject carry the printed name and number.
    expect(raw).toContain(pdfTextString(`${diplomeEtatTemplate.name} — Ngalula Kabamba Élodie`));
    expect(raw).toContain(pdfTextString('N° q3Yb1mJk2Vx8Zr4tN6pL0w'));
    expect(verifyPdfSignature(pdf).intact).toBe(true);
  }, 60_000);

  it('renderHeld: the thread reads the photo from the store and writes the PDF only when told, under the key given', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sceau-pool-'));
    try {
      const files = { filesDir: dir, fileStorage: { kind: 'local', s3: null } } as unknown as WorkerFiles;
      const storage = new LocalFileStorage(dir);
      await storage.put('photos/1/a.jpg', Buffer.from(photo));
      const pool = newPool({ size: 1 });
      const credential = testCredentialJson(testFields());
      const withRecord = (id: string) =>
        new TextEncoder().encode(
          JSON.stringify({
            record: {
              diploma_id: id,
              last_name: 'Ilunga',
              first_name: 'Grâce',
              birth_date: '2007-01-09',
              birth_place: 'Matadi',
              issue_date: '2026-07-01',
              percentage: 65.8,
              session_year: 2026,
            },
          }),
        );
      // The printed fields come from the credential's record.
      const held = await pool.renderHeld(setup, files, {
        photoKey: 'photos/1/a.jpg',
        qr: { verifyUrl: 'https://sceau.example/verify/a', offlinePayload: testOfflinePayload() },
        credentialJson: withRecord('a'),
      });
      expect(await storage.get('diplomas/1/a.pdf')).toBeNull(); // nothing written before store()
      await held.store('diplomas/1/a.pdf');
      const pdf = (await storage.get('diplomas/1/a.pdf'))!;
      expect(pdf.length).toBe(held.bytes);
      expect(createHash('sha256').update(pdf).digest('hex')).toBe(held.sha256);
      expect(verifyPdfSignature(pdf).intact).toBe(true);
      await expect(held.store('diplomas/1/again.pdf')).rejects.toThrow(/already stored/);

      const released = await pool.renderHeld(setup, files, {
        photoKey: 'photos/1/a.jpg',
        qr: { verifyUrl: 'https://sceau.example/verify/b', offlinePayload: testOfflinePayload() },
        credentialJson: withRecord('b'),
      });
      released.release();
      await expect(released.store('diplomas/1/b.pdf')).rejects.toThrow(/already stored or released/);
      expect(await storage.get('diplomas/1/b.pdf')).toBeNull();

      const missing = await pool
        .renderHeld(setup, files, { photoKey: 'photos/1/none.jpg', qr: { verifyUrl: 'x', offlinePayload: 'y' }, credentialJson: credential })
        .catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(RenderError);
      expect((missing as RenderError).code).toBe('photo_missing');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('rejects only the job that failed in a worker, and goes on', async () => {
    const pool = newPool({ size: 1 });
    const bad = { ...job(1), fields: { ...job(1).fields, name: undefined as unknown as string } };
    const outcomes = await Promise.allSettled([pool.render(setup, job(0)), pool.render(setup, bad), pool.render(setup, job(2))]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(RenderError);
  }, 60_000);

  it('replaces a worker that died: its jobs fail, later jobs are rendered', async () => {
    const pool = newPool({ size: 1, inFlightPerWorker: 2 });
    const first = [pool.render(setup, job(0)), pool.render(setup, job(1))];
    const later = [pool.render(setup, job(2)), pool.render(setup, job(3))];
    pool.crashOneWorkerForTest();
    const settled = await Promise.allSettled(first);
    // The crash message may arrive after the first jobs were done: at most those in flight fail.
    for (const s of settled) if (s.status === 'rejected') expect(String(s.reason)).toMatch(/render worker stopped/);
    expect((await Promise.all(later)).every((r) => r.pdf.byteLength > 0)).toBe(true);
    expect(await pool.render(setup, job(4))).toBeTruthy();
  }, 60_000);

  it('closes cleanly: waiting jobs are rejected, later ones refused', async () => {
    const pool = newPool({ size: 1, inFlightPerWorker: 1 });
    const jobs = Array.from({ length: 6 }, (_, i) => pool.render(setup, job(i)));
    const rest = Promise.allSettled(jobs.slice(1));
    await jobs[0];
    await pool.close();
    const settled = await rest;
    expect(settled.some((s) => s.status === 'rejected' && /closed/.test(String(s.reason)))).toBe(true);
    await expect(pool.render(setup, job(9))).rejects.toThrow(/closed/);
    await pool.close(); // idempotent
  }, 60_000);
});
