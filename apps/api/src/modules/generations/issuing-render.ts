import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { diplomas, generationItems, generations } from '../../db/schema.ts';
import { batchDesign } from './batch-design.ts';
import { BatchDataError, type IssuingDeps, type ItemRange } from './issuing-deps.ts';
import { RenderError, sharedRenderPool, type HeldPdf, type RenderSetup } from './render-pool.ts';

/** Issuing's phase two (IssuingService.generate and renderRange): each diploma's PDF, rendered, signed and stored. */

/** What the PDF phase reads of each diploma still without its PDF. */
interface PendingRow extends Record<string, unknown> {
  id: string;
  item_id: number;
  qr_payload: string;
  /** The credential document as PostgreSQL prints the jsonb. */
  credential: string;
  photo_key: string | null;
  candidate_code: string;
}

/**
 * Phase two, resumable: the PDFs still missing, a chunk at a time, rendered and signed on every
 * core by the render pool (render-pool.ts, ADR 0050). A few chunks are in flight at once so the
 * workers never wait on the database or the disk. Each chunk's files are written, then its rows
 * and the batch's progress are updated in one transaction, only for diplomas that still have
 * no PDF: a crash, a retry or a second run of the job never counts or stores a diploma twice.
 */
export async function renderPending(deps: IssuingDeps, generationId: number, range?: ItemRange): Promise<void> {
  const { db, config, keys, storage } = deps;
  const CHUNK = 100;
  const CHUNKS_IN_FLIGHT = 3;
  const pool = sharedRenderPool();
  const [batch] = await db.select().from(generations).where(eq(generations.id, generationId));

  // What each worker needs once: the template with the signers of the settings page and their
  // signature images (batch-design.ts, shared with the specimen preview), and the signing key.
  const { template, design, signatures, signatureImages, chosen } = await batchDesign(db, storage, batch!);
  // PAdES B-LTA (ADR 0135): the TSA and the DSS's data; a new CRL or TSA certificate is a new set-up.
  const longTerm = await deps.timestamping.setup();
  const setup: RenderSetup = {
    key: `${template.id}:${template.updatedAt.getTime()}:${signatures.map((s) => `${s.kind}=${s.imageSha256}/${s.signerName}/${s.signerTitle}`).join(',')}:${chosen ? 'chosen' : 'all'}:${keys.active.kid}:${longTerm.id}`,
    template: design,
    signatureImages,
    // A file key signs in the render threads; a token's key (PKCS#11) signs in this thread, asked by them (ADR 0136).
    signer: keys.active.privateKey
      ? { privateKeyPem: keys.active.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string, certificateChainDer: keys.active.certificateChainDer }
      : keys.active.pdfSigner,
    longTerm,
  };

  const base = config.publicUrl.replace(/\/$/, '');
  const encoder = new TextEncoder();

  const renderChunk = async (rows: PendingRow[]): Promise<void> => {
    const missing = rows.find((row) => !row.photo_key);
    if (missing) throw new BatchDataError(`candidate ${missing.candidate_code} has no photo`);
    const qr = (row: PendingRow) => ({ verifyUrl: `${base}/verify/${row.id}`, offlinePayload: row.qr_payload });
    // The credential goes as the database's text: the render thread reads the printed fields from
    // it and attaches it re-serialised (render-worker.ts), so the main thread does no JSON work.
    let results: PromiseSettledResult<HeldPdf>[];
    let t = performance.now();
    if (deps.workerFiles) {
      // The threads read the photos and, once the rows are locked below, write the PDFs
      // themselves: no photo or PDF bytes through the main thread (nor its garbage collector).
      const files = deps.workerFiles;
      results = await Promise.allSettled(
        rows.map((row) => pool.renderHeld(setup, files, { photoKey: row.photo_key!, qr: qr(row), credentialJson: encoder.encode(row.credential) })),
      );
    } else {
      const photos = await Promise.all(rows.map((row) => storage.get(row.photo_key!)));
      pool.stats.photoReadMs += performance.now() - t;
      results = await Promise.allSettled(
        rows.map(async (row, i): Promise<HeldPdf> => {
          if (!photos[i]) throw new RenderError(`photo ${row.photo_key} is not in the file store`, 'photo_missing');
          const { pdf, sha256, timestampExpiresAt } = await pool.renderFromCredential(setup, { photo: photos[i], qr: qr(row), credentialJson: encoder.encode(row.credential) });
          return {
            sha256,
            bytes: pdf.byteLength,
            timestampExpiresAt,
            store: (key) => storage.put(key, Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)),
            release: () => {},
          };
        }),
      );
    }
    const rendered = results.map((r) => (r.status === 'fulfilled' ? r.value : null));
    try {
      const failed = results.findIndex((r) => r.status === 'rejected');
      if (failed >= 0) {
        const error = (results[failed] as PromiseRejectedResult).reason;
        if (error instanceof RenderError && error.code === 'photo_missing') throw new BatchDataError(`candidate ${rows[failed]!.candidate_code} has no photo`);
        throw error;
      }
      t = performance.now();
      await db.transaction(async (tx) => {
        // The rows no other run has stored meanwhile, held until commit: their files are ours to write.
        const ids = rows.map((r) => r.id);
        const mine = await tx
          .select({ id: diplomas.id })
          .from(diplomas)
          .where(and(inArray(diplomas.id, ids), isNull(diplomas.pdfKey)))
          .for('update', { skipLocked: true });
        if (mine.length === 0) return;
        const keep = new Set(mine.map((m) => m.id));
        const updates: { id: string; pdf_key: string; pdf_sha256: string; pdf_bytes: number; timestamp_expires_at: string }[] = [];
        const s = performance.now();
        await Promise.all(
          rows.map(({ id }, i) => {
            if (!keep.has(id)) return undefined;
            const pdf = rendered[i]!;
            const key = `diplomas/${generationId}/${id}.pdf`;
            updates.push({ id, pdf_key: key, pdf_sha256: pdf.sha256, pdf_bytes: pdf.bytes, timestamp_expires_at: pdf.timestampExpiresAt });
            return pdf.store(key);
          }),
        );
        pool.stats.storageMs += performance.now() - s;
        await tx.execute(sql`
          update ${diplomas} set pdf_key = v.pdf_key, pdf_sha256 = v.pdf_sha256, pdf_bytes = v.pdf_bytes, timestamp_expires_at = v.timestamp_expires_at
          from json_to_recordset(${JSON.stringify(updates)}::json) as v(id text, pdf_key text, pdf_sha256 text, pdf_bytes integer, timestamp_expires_at timestamptz)
          where ${diplomas.id} = v.id`);
        await tx
          .update(generations)
          .set({ progressDone: sql`${generations.progressDone} + ${updates.length}`, updatedAt: new Date() })
          .where(eq(generations.id, generationId));
      });
      pool.stats.dbMs += performance.now() - t;
    } finally {
      // PDFs not stored (another run's rows, a failure): the threads forget them.
      for (const pdf of rendered) pdf?.release();
    }
  };

  // Chunks in item order (keyset), a few at a time; the first failure stops new chunks.
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  let after = range ? range.from - 1 : 0;
  while (!failure) {
    const { rows: pending } = await db.execute<PendingRow>(sql`
      select d.id, d.item_id::int as item_id, d.qr_payload, d.credential::text as credential, i.photo_key, i.candidate_code
      from ${diplomas} d join ${generationItems} i on i.id = d.item_id
      where d.generation_id = ${generationId} and d.pdf_key is null and d.item_id > ${after}${range ? sql` and d.item_id <= ${range.to}` : sql``}
      order by d.item_id
      limit ${CHUNK}`);
    if (pending.length === 0) break;
    after = pending.at(-1)!.item_id;
    const task: Promise<void> = renderChunk(pending)
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => running.delete(task));
    running.add(task);
    if (running.size >= CHUNKS_IN_FLIGHT) await Promise.race(running);
  }
  await Promise.all(running);
  if (failure) throw (failure as { error: unknown }).error;
}
