import { buildMerkleTree, bytesToHex, credentialDocument, encodeQrPayload, newDiplomaId, qrFieldsFromRecord, saltRecord, signMerkleRoot } from '@sceau/credential';
import { nodeZlibCompress } from '@sceau/credential/node-signer';
import type { Gender } from '@sceau/contracts';
import { eq, sql } from 'drizzle-orm';
import { centres, diplomas, educProvinces, examSessions, generationItems, generations, institutions, options } from '../../db/schema.ts';
import { reserveSerials } from './diploma-serials.ts';
import { BatchDataError, type IssuingDeps } from './issuing-deps.ts';
import { writeSeals, type SealableRow } from '../verification/verification-seal.ts';

/** Issuing's phase one (IssuingService.generate): the credentials, the batch's tree and signed root, the QR payloads. */

const CREDENTIAL_CHUNK = 500;

/** What the credential phase reads of each candidate. */
interface CandidateRow extends Record<string, unknown> {
  id: number;
  candidate_code: string;
  last_name: string;
  middle_name: string | null;
  first_name: string | null;
  birth_date: string;
  birth_place: string;
  gender: Gender;
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

/** The day of issue, as printed and hashed: the date in Kinshasa. */
export function issueDate(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Kinshasa', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/**
 * Phase one, all or nothing, in one transaction: every credential and its QR payload, the tree and
 * the signed root. Streamed, so memory does not grow with the batch: candidates are read and
 * written a chunk at a time, only their targetHashes (32 bytes each) are kept to build the tree,
 * then each credential receives its proof, again a chunk at a time.
 */
export async function writeCredentials(deps: IssuingDeps, generationId: number): Promise<void> {
  const { db, config, keys, chain, log } = deps;
  // Read before the transaction (it may create the key file): null when there is none, then nothing is sealed.
  const sealKey = await deps.seal.key();
  // The serials first, in a statement of their own (diploma-serials.ts): never from inside the
  // transaction, which would need a second connection of the pool while holding one.
  const [batch] = await db
    .select({ type: generations.type, sessionId: generations.sessionId, merkleRoot: generations.merkleRoot })
    .from(generations)
    .where(eq(generations.id, generationId));
  if (!batch || batch.merkleRoot) return;
  const [{ year }] = (await db.select({ year: examSessions.year }).from(examSessions).where(eq(examSessions.id, batch.sessionId))) as [{ year: number }];
  const [{ count }] = (await db
    .select({ count: sql<number>`count(*)::int` })
    .from(generationItems)
    .where(sql`${generationItems.generationId} = ${generationId} and not ${generationItems.rejected}`)) as [{ count: number }];
  const serials = await reserveSerials(db, batch.type, year, count);
  let nextSerial = 0;
  await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(generations).where(eq(generations.id, generationId)).for('update');
    if (!locked || locked.merkleRoot) return; // another worker got here first
    const [session] = await tx.select().from(examSessions).where(eq(examSessions.id, locked.sessionId));
    const base = config.publicUrl.replace(/\/$/, '');
    const issuer = {
      id: config.issuer.id,
      name: config.issuer.name,
      jwks_url: `${base}/.well-known/jwks.json`,
      registry: { chain_id: chain.chainId, contract: chain.address.toLowerCase() },
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
      if (nextSerial + rows.length > serials.length) throw new BatchDataError('the batch gained candidates while its diplomas were being issued: issue it again');
      const values = [];
      for (const item of rows) {
        const salted = saltRecord(
          {
            diploma_id: newDiplomaId(),
            serial: serials[nextSerial++]!,
            candidate_code: item.candidate_code,
            last_name: item.last_name,
            middle_name: item.middle_name ?? '',
            first_name: item.first_name ?? '',
            birth_date: item.birth_date,
            birth_place: item.birth_place,
            gender: item.gender,
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
            issuer: config.issuer.id,
          },
          issuer,
        );
        const targetHash = bytesToHex(salted.targetHash);
        // The QR names the targetHash, not the proof: it can be signed before the tree exists.
        const qr = await encodeQrPayload(qrFieldsFromRecord(salted.record, targetHash), keys.active.es256, { compress: nodeZlibCompress });
        leaves.push(salted.targetHash);
        ids.push(salted.record.diploma_id);
        values.push({
          id: salted.record.diploma_id,
          serial: salted.record.serial,
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
        insert into ${diplomas} (id, serial, item_id, generation_id, candidate_code, credential, target_hash, qr_payload, signing_key_id)
        select v.id, v.serial, v.item_id, ${generationId}, v.candidate_code, v.credential, v.target_hash, v.qr_payload, ${keys.active.kid}
        from json_to_recordset(${JSON.stringify(values)}::json) as v(id text, serial text, item_id bigint, candidate_code text, credential jsonb, target_hash text, qr_payload text)`);
      after = rows.at(-1)!.id;
    }
    if (leaves.length === 0) throw new BatchDataError('no candidate to issue a diploma to');

    const tree = buildMerkleTree(leaves);
    const merkleRoot = bytesToHex(tree.root);
    const issuerSignature = await signMerkleRoot(merkleRoot, keys.active.es256);
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
      const { rows: completed } = await tx.execute<SealableRow>(sql`
        update diplomas d set credential = jsonb_set(d.credential, '{signature}', v.signature)
        from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as v(id text, signature jsonb)
        where d.id = v.id
        returning d.id, d.credential::text as credential`);
      // Each complete credential checked in full as the database now holds it, then sealed with its
      // public credential (ADR 0154): a verification by id of an untouched row need not hash it again.
      if (sealKey) {
        const { failed } = await writeSeals(tx, sealKey, completed);
        for (const f of failed) log.warn({ diplomaId: f.id, problem: f.problem }, 'a credential just issued does not pass its own check: left unsealed');
      }
    }
    await tx.update(generations).set({ merkleRoot, progressTotal: ids.length, progressDone: 0, updatedAt: new Date() }).where(eq(generations.id, generationId));
  });
}
