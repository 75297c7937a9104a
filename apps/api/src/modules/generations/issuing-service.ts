import { buildMerkleTree, bytesToHex, credentialDocument, encodeQrPayload, newDiplomaId, qrFieldsFromRecord, saltRecord, signMerkleRoot } from '@sceau/credential';
import { nodeZlibCompress } from '@sceau/credential/node-signer';
import { PUBLISHED_STATUS } from '@sceau/contracts';
import type { DiplomaTemplateInput, SignatureImages, SignatureRole } from '@sceau/pdf';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { reconcile } from '@sceau/chain';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { centres, diplomas, educProvinces, examSessions, generationItems, generations, institutions, officialSignatures, options, templates } from '../../db/schema.ts';
import type { FileStorage } from '../../lib/storage.ts';
import type { OpenChain } from '../chain/open-chain.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';
import { moveGeneration, moveSignature } from './generation-status.ts';
import { RenderError, sharedRenderPool, type HeldPdf, type RenderSetup, type WorkerFiles } from './render-pool.ts';

/** A batch that cannot be generated as it is (missing photo, no candidate): retrying will not help. */
export class BatchDataError extends Error {}

const CREDENTIAL_CHUNK = 500;
/** Diplomas per chunk job when a batch's PDFs are shared between worker processes. */
export const RENDER_RANGE = 1000;

/** What the credential phase reads of each candidate. */
interface CandidateRow extends Record<string, unknown> {
  id: number;
  candidate_code: string;
  last_name: string;
  middle_name: string | null;
  first_name: string | null;
  birth_date: string;
  birth_place: string;
  gender: string;
  percentage_tenths: number;
  option_name: string;
  option_code: string;
  school_name: string;
  school_code: string;
  centre_name: string;
  centre_code: string;
  province_name: string;
  province_code: string;
}

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

/** Items `from` to `to` (ids, both included) of a batch. */
export interface ItemRange {
  from: number;
  to: number;
}

/** The day of issue, as printed and hashed: the date in Kinshasa. */
function issueDate(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Kinshasa', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/**
 * Turns a launched batch into signed diplomas and publishes it (architecture section 3):
 * - `generate`: every validated candidate gets a credential (salted hashes, targetHash), the batch
 *   its Merkle tree (root signed with the ministry's ES256 key), each diploma its signed QR payload,
 *   then its PDF (rendered, credential attached, PAdES-signed) → "ready for signature";
 * - `anchor`: the root written to the registry contract → signature "finished", batch "completed".
 * Both are idempotent: after a crash they resume where they stopped and issue each diploma once.
 */
export class IssuingService {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly keys: MinistryKeys,
    private readonly storage: FileStorage,
    private readonly chain: OpenChain,
    private readonly log: Pick<Logger, 'info' | 'warn'>,
    private readonly options: {
      /**
       * The configuration `storage` was built from (services.ts): the render threads then build
       * the same store and read photos and write PDFs themselves. Without it (a store made
       * otherwise, e.g. by a test) the main thread does the file work.
       */
      workerFiles?: WorkerFiles;
    } = {},
  ) {}

  /**
   * Phase one (credentials, tree, QR payloads), then phase two (the PDFs). With `fanOut`, phase
   * two is handed to chunk jobs instead (ranges of item ids, ADR 0105): every worker process then
   * shares the batch, and the last chunk moves it to "ready for signature" (`renderRange`).
   */
  async generate(generationId: number, options: { fanOut?: (ranges: ItemRange[]) => Promise<void>; rangeSize?: number } = {}): Promise<void> {
    const [batch] = await this.db.select().from(generations).where(eq(generations.id, generationId));
    if (!batch || batch.status !== 'in_progress') return; // done already, or no longer wanted
    await this.failOnDataError(generationId, async () => {
      if (!batch.merkleRoot) await this.writeCredentials(generationId);
      if (options.fanOut) {
        const ranges = await this.pendingRanges(generationId, options.rangeSize ?? RENDER_RANGE);
        if (ranges.length) return options.fanOut(ranges);
      } else {
        await this.renderPending(generationId);
      }
      await this.finishIfRendered(generationId);
    });
  }

  /**
   * A chunk job: the PDFs still missing among items `from`–`to` of a batch being generated, then the
   * batch moves on if it was the last. Any number may run at once, in any process: a PDF is stored
   * and counted by the run that locks its row first (see renderPending).
   */
  async renderRange(generationId: number, range: ItemRange): Promise<void> {
    const [batch] = await this.db.select({ status: generations.status }).from(generations).where(eq(generations.id, generationId));
    if (batch?.status !== 'in_progress') return; // failed or cancelled meanwhile: a relaunch sends new chunks
    await this.failOnDataError(generationId, async () => {
      await this.renderPending(generationId, range);
      await this.finishIfRendered(generationId);
    });
  }

  /** The diplomas of a batch still without a PDF, as consecutive ranges of at most `size` items. */
  async pendingRanges(generationId: number, size: number): Promise<ItemRange[]> {
    const result = await this.db.execute<{ from: number; to: number }>(sql`
      select min(item_id)::int as "from", max(item_id)::int as "to"
      from (select item_id, (row_number() over (order by item_id) - 1) / ${size} as chunk
            from ${diplomas} where generation_id = ${generationId} and pdf_key is null) pending
      group by chunk order by 1`);
    return result.rows.map((r) => ({ from: r.from, to: r.to }));
  }

  /** "Ready for signature" once every diploma has its PDF; once only, whoever finishes last. */
  private async finishIfRendered(generationId: number): Promise<void> {
    const moved = await this.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(generations).where(eq(generations.id, generationId)).for('update');
      if (locked?.status !== 'in_progress' || !locked.merkleRoot) return false;
      const [left] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(diplomas)
        .where(and(eq(diplomas.generationId, generationId), isNull(diplomas.pdfKey)));
      if (left!.n > 0) return false;
      await moveGeneration(tx, generationId, 'ready_for_signature', { changes: { generatedAt: new Date() } });
      return true;
    });
    if (moved) this.log.info({ generationId }, 'batch generated: ready for signature');
  }

  /** A batch that cannot be generated as it is fails (retrying would not help); other errors go up (the job is retried). */
  private async failOnDataError(generationId: number, work: () => Promise<void>): Promise<boolean> {
    try {
      await work();
      return true;
    } catch (error) {
      if (!(error instanceof BatchDataError)) throw error;
      await this.db.transaction(async (tx) => {
        const [locked] = await tx.select({ status: generations.status }).from(generations).where(eq(generations.id, generationId)).for('update');
        if (locked?.status === 'in_progress') await moveGeneration(tx, generationId, 'failed', { changes: { lastError: error.message }, reason: error.message });
      });
      this.log.warn({ generationId, reason: error.message }, 'batch generation failed');
      return false;
    }
  }

  /**
   * Phase one, all or nothing, in one transaction: every credential and its QR payload, the tree and
   * the signed root. Streamed, so memory does not grow with the batch: candidates are read and
   * written a chunk at a time, only their targetHashes (32 bytes each) are kept to build the tree,
   * then each credential receives its proof, again a chunk at a time.
   */
  private async writeCredentials(generationId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(generations).where(eq(generations.id, generationId)).for('update');
      if (!locked || locked.merkleRoot) return; // another worker got here first
      const [session] = await tx.select().from(examSessions).where(eq(examSessions.id, locked.sessionId));
      const base = this.config.publicUrl.replace(/\/$/, '');
      const issuer = {
        id: this.config.issuer.id,
        name: this.config.issuer.name,
        jwks_url: `${base}/.well-known/jwks.json`,
        registry: { chain_id: this.chain.chainId, contract: this.chain.address.toLowerCase() },
      };
      const day = issueDate();
      const leaves: Uint8Array[] = [];
      const ids: string[] = [];
      let after = 0;
      for (;;) {
        // Plain SQL for the hot loop: only the columns the record needs, no ORM mapping per row.
        const { rows } = await tx.execute<CandidateRow>(sql`
          select i.id::int as id, i.candidate_code, i.last_name, i.middle_name, i.first_name, i.birth_date, i.birth_place, i.gender,
                 i.percentage_tenths, o.name as option_name, o.code as option_code, s.name as school_name, s.code as school_code,
                 c.name as centre_name, c.code as centre_code, p.name as province_name, p.code as province_code
          from ${generationItems} i
          join ${options} o on o.id = i.option_id
          join ${institutions} s on s.id = i.institution_id
          join ${centres} c on c.id = i.centre_id
          join ${educProvinces} p on p.id = s.educ_province_id
          where i.generation_id = ${generationId} and not i.rejected and i.id > ${after}
          order by i.id
          limit ${CREDENTIAL_CHUNK}`);
        if (rows.length === 0) break;
        const values = [];
        for (const item of rows) {
          const salted = saltRecord(
            {
              diploma_id: newDiplomaId(),
              candidate_code: item.candidate_code,
              last_name: item.last_name,
              middle_name: item.middle_name ?? '',
              first_name: item.first_name ?? '',
              birth_date: item.birth_date,
              birth_place: item.birth_place,
              gender: item.gender as 'M' | 'F',
              option: item.option_name,
              option_code: item.option_code,
              school: item.school_name,
              school_code: item.school_code,
              centre: item.centre_name,
              centre_code: item.centre_code,
              educ_province: item.province_name,
              educ_province_code: item.province_code,
              session: session!.name,
              session_year: session!.year,
              percentage: item.percentage_tenths / 10,
              issue_date: day,
              issuer: this.config.issuer.id,
            },
            issuer,
          );
          const targetHash = bytesToHex(salted.targetHash);
          // The QR names the targetHash, not the proof: it can be signed before the tree exists.
          const qr = await encodeQrPayload(qrFieldsFromRecord(salted.record, targetHash), this.keys.active.es256, { compress: nodeZlibCompress });
          leaves.push(salted.targetHash);
          ids.push(salted.record.diploma_id);
          values.push({
            id: salted.record.diploma_id,
            item_id: item.id,
            candidate_code: item.candidate_code,
            // Its signature (proof, root, the ministry's signature of the root) is set once the tree is built.
            credential: credentialDocument(salted, issuer, [], '0'.repeat(64)),
            target_hash: targetHash,
            qr_payload: qr.text,
          });
        }
        // One statement and one JSON parameter per chunk (the ORM's multi-row insert built ~10 bound
        // parameters per row and was a large share of this phase's CPU).
        await tx.execute(sql`
          insert into ${diplomas} (id, item_id, generation_id, candidate_code, credential, target_hash, qr_payload, signing_key_id)
          select v.id, v.item_id, ${generationId}, v.candidate_code, v.credential, v.target_hash, v.qr_payload, ${this.keys.active.kid}
          from json_to_recordset(${JSON.stringify(values)}::json) as v(id text, item_id bigint, candidate_code text, credential jsonb, target_hash text, qr_payload text)`);
        after = rows.at(-1)!.id;
      }
      if (leaves.length === 0) throw new BatchDataError('no candidate to issue a diploma to');

      const tree = buildMerkleTree(leaves);
      const merkleRoot = bytesToHex(tree.root);
      const issuerSignature = await signMerkleRoot(merkleRoot, this.keys.active.es256);
      for (let start = 0; start < ids.length; start += CREDENTIAL_CHUNK) {
        const chunk = ids.slice(start, start + CREDENTIAL_CHUNK).map((id, i) => ({
          id,
          signature: {
            type: 'MerkleProof',
            targetHash: bytesToHex(leaves[start + i]!),
            proof: tree.proof(start + i).map(bytesToHex),
            merkleRoot,
            issuerSignature,
          },
        }));
        await tx.execute(sql`
          update diplomas d set credential = jsonb_set(d.credential, '{signature}', v.signature)
          from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as v(id text, signature jsonb)
          where d.id = v.id`);
      }
      await tx.update(generations).set({ merkleRoot, progressTotal: ids.length, progressDone: 0, updatedAt: new Date() }).where(eq(generations.id, generationId));
    });
  }

  /**
   * Phase two, resumable: the PDFs still missing, a chunk at a time, rendered and signed on every
   * core by the render pool (render-pool.ts, ADR 0050). A few chunks are in flight at once so the
   * workers never wait on the database or the disk. Each chunk's files are written, then its rows
   * and the batch's progress are updated in one transaction, only for diplomas that still have
   * no PDF: a crash, a retry or a second run of the job never counts or stores a diploma twice.
   */
  private async renderPending(generationId: number, range?: ItemRange): Promise<void> {
    const CHUNK = 100;
    const CHUNKS_IN_FLIGHT = 3;
    const pool = sharedRenderPool();
    const [batch] = await this.db.select().from(generations).where(eq(generations.id, generationId));

    // What each worker needs once: the template with the signers of the settings page, their
    // signature images, and the ministry's PDF signing key.
    const [template] = await this.db.select().from(templates).where(eq(templates.id, batch!.templateId));
    // The signatures as they stood at launch (the snapshot); a batch launched before snapshots
    // existed reads /settings as it is now.
    const configured = batch!.signatureSnapshot ?? (await this.db.select().from(officialSignatures).orderBy(asc(officialSignatures.kind)));
    // The signatures chosen at launch, exactly (every configured one for a batch launched before the choice).
    const chosen = batch!.signatureKinds;
    const gone = (chosen ?? []).filter((kind) => !configured.some((s) => s.kind === kind));
    if (gone.length) throw new BatchDataError(`official signature removed since the launch: ${gone.join(', ')} (add it again on /settings, or cancel the batch)`);
    const signatures = chosen ? configured.filter((s) => chosen.includes(s.kind)) : configured;
    const role: Record<string, SignatureRole> = { ministry: 'ministry', inspector_general: 'inspectorGeneral', jury: 'juryPresident' };
    const signatureImages: SignatureImages = {};
    for (const s of signatures) {
      const bytes = await this.storage.get(s.imageKey);
      const target = role[s.kind];
      if (bytes && target) signatureImages[target] = new Uint8Array(bytes);
    }
    const design = structuredClone(template!.design) as unknown as DiplomaTemplateInput & { signatures?: { role: string; title: string; signerName: string }[] };
    if (chosen) design.signatures = design.signatures?.filter((box) => chosen.some((kind) => role[kind] === box.role));
    for (const box of design.signatures ?? []) {
      const kind = Object.entries(role).find(([, r]) => r === box.role)?.[0];
      const signer = signatures.find((s) => s.kind === kind);
      if (signer) Object.assign(box, { title: signer.signerTitle, signerName: signer.signerName });
    }
    const setup: RenderSetup = {
      key: `${template!.id}:${template!.updatedAt.getTime()}:${signatures.map((s) => `${s.kind}=${s.imageSha256}/${s.signerName}/${s.signerTitle}`).join(',')}:${chosen ? 'chosen' : 'all'}:${this.keys.active.kid}`,
      template: design,
      signatureImages,
      signer: {
        privateKeyPem: this.keys.active.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string,
        certificateChainDer: this.keys.active.certificateChainDer,
      },
    };

    const base = this.config.publicUrl.replace(/\/$/, '');
    const encoder = new TextEncoder();

    const renderChunk = async (rows: PendingRow[]): Promise<void> => {
      const missing = rows.find((row) => !row.photo_key);
      if (missing) throw new BatchDataError(`candidate ${missing.candidate_code} has no photo`);
      const qr = (row: PendingRow) => ({ verifyUrl: `${base}/verify/${row.id}`, offlinePayload: row.qr_payload });
      // The credential goes as the database's text: the render thread reads the printed fields from
      // it and attaches it re-serialised (render-worker.ts), so the main thread does no JSON work.
      let results: PromiseSettledResult<HeldPdf>[];
      let t = performance.now();
      if (this.options.workerFiles) {
        // The threads read the photos and, once the rows are locked below, write the PDFs
        // themselves: no photo or PDF bytes through the main thread (nor its garbage collector).
        const files = this.options.workerFiles;
        results = await Promise.allSettled(
          rows.map((row) => pool.renderHeld(setup, files, { photoKey: row.photo_key!, qr: qr(row), credentialJson: encoder.encode(row.credential) })),
        );
      } else {
        const photos = await Promise.all(rows.map((row) => this.storage.get(row.photo_key!)));
        pool.stats.photoReadMs += performance.now() - t;
        results = await Promise.allSettled(
          rows.map(async (row, i): Promise<HeldPdf> => {
            if (!photos[i]) throw new RenderError(`photo ${row.photo_key} is not in the file store`, 'photo_missing');
            const { pdf, sha256 } = await pool.renderFromCredential(setup, { photo: photos[i], qr: qr(row), credentialJson: encoder.encode(row.credential) });
            return { sha256, bytes: pdf.byteLength, store: (key) => this.storage.put(key, Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)), release: () => {} };
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
        await this.db.transaction(async (tx) => {
          // The rows no other run has stored meanwhile, held until commit: their files are ours to write.
          const ids = rows.map((r) => r.id);
          const mine = await tx
            .select({ id: diplomas.id })
            .from(diplomas)
            .where(and(inArray(diplomas.id, ids), isNull(diplomas.pdfKey)))
            .for('update', { skipLocked: true });
          if (mine.length === 0) return;
          const keep = new Set(mine.map((m) => m.id));
          const updates: { id: string; pdf_key: string; pdf_sha256: string; pdf_bytes: number }[] = [];
          const s = performance.now();
          await Promise.all(
            rows.map(({ id }, i) => {
              if (!keep.has(id)) return undefined;
              const pdf = rendered[i]!;
              const key = `diplomas/${generationId}/${id}.pdf`;
              updates.push({ id, pdf_key: key, pdf_sha256: pdf.sha256, pdf_bytes: pdf.bytes });
              return pdf.store(key);
            }),
          );
          pool.stats.storageMs += performance.now() - s;
          await tx.execute(sql`
            update ${diplomas} set pdf_key = v.pdf_key, pdf_sha256 = v.pdf_sha256, pdf_bytes = v.pdf_bytes
            from json_to_recordset(${JSON.stringify(updates)}::json) as v(id text, pdf_key text, pdf_sha256 text, pdf_bytes integer)
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
      const { rows: pending } = await this.db.execute<PendingRow>(sql`
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

  /**
   * At start: every batch the database records as anchored must be known to the chain. On the local
   * chain (which may have lost its last second, or its contract) a missing root is anchored again
   * and the new transaction recorded; on an external chain it is flagged, never silently rewritten.
   */
  async reconcileAnchors(log: Pick<Logger, 'info' | 'warn' | 'error'>): Promise<{ checked: number; reanchored: number; flagged: number }> {
    const anchored = await this.db
      .select({ id: generations.id, root: generations.merkleRoot, txHash: generations.anchorTxHash })
      .from(generations)
      .where(and(eq(generations.signatureStatus, 'finished'), sql`${generations.merkleRoot} is not null`));
    if (anchored.length === 0) return { checked: 0, reanchored: 0, flagged: 0 };
    const { missing } = await reconcile(
      this.chain.registry,
      anchored.map((a) => ({ root: `0x${a.root}` as `0x${string}`, txHash: a.txHash as `0x${string}` | null })),
    );
    let reanchored = 0;
    let flagged = 0;
    for (const lost of missing) {
      const batch = anchored.find((a) => `0x${a.root}` === lost.root)!;
      if (this.chain.local) {
        const anchor = await this.chain.registry.issueRoot(lost.root);
        await this.db
          .update(generations)
          .set({
            anchorTxHash: anchor.txHash,
            anchorBlockNumber: anchor.blockNumber,
            anchorContract: this.chain.address.toLowerCase(),
            anchoredAt: new Date(anchor.timestamp * 1000),
            updatedAt: new Date(),
          })
          .where(eq(generations.id, batch.id));
        log.warn({ generationId: batch.id, txHash: anchor.txHash }, 'the local chain had lost this batch: anchored again');
        reanchored++;
      } else {
        const message = `root ${lost.root} not found on chain ${this.chain.chainId} (recorded transaction ${lost.txHash ?? 'none'})`;
        await this.db.update(generations).set({ lastError: message, updatedAt: new Date() }).where(eq(generations.id, batch.id));
        log.error({ generationId: batch.id }, `anchored batch missing from the chain: ${message}`);
        flagged++;
      }
    }
    return { checked: anchored.length, reanchored, flagged };
  }

  /**
   * Publishes a generated batch: writes its root to the registry. A chain that does not answer
   * throws (the job is retried) and leaves the signature "in progress": it is "finished" only with
   * a mined transaction.
   */
  async anchor(generationId: number): Promise<void> {
    const [batch] = await this.db.select().from(generations).where(eq(generations.id, generationId));
    if (!batch || batch.status !== 'ready_for_signature' || batch.signatureStatus !== 'in_progress' || !batch.merkleRoot) return;
    const anchor = await this.chain.registry.issueRoot(`0x${batch.merkleRoot}`);
    await this.db.transaction(async (tx) => {
      const changes = {
        anchorChainId: this.chain.chainId,
        anchorContract: this.chain.address.toLowerCase(),
        anchorTxHash: anchor.txHash,
        anchorBlockNumber: anchor.blockNumber,
        anchoredAt: new Date(anchor.timestamp * 1000),
      };
      await moveSignature(tx, generationId, 'finished', { changes });
      await moveGeneration(tx, generationId, PUBLISHED_STATUS, { changes: { publishedAt: new Date() } });
    });
    this.log.info({ generationId, txHash: anchor.txHash }, 'batch anchored and published');
  }
}
