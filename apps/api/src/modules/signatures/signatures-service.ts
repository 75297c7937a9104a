import { endpoints, pathOf, SIGNATURE_KINDS, type SignatureKind, type SignatureView } from '@sceau/contracts';
import { createHash } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { generations, officialSignatures, users } from '../../db/schema.ts';
import type { Actor } from '../../policies/actor.ts';
import { authorize } from '../../policies/policy.ts';
import { signaturePolicy } from '../../policies/signature-policy.ts';
import { AppError } from '../../lib/errors.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { recordAudit } from '../audit/audit-service.ts';
import { processSignatureImage } from './signature-image.ts';

/** The official signatures (ministry, inspector general, jury) printed on diplomas. */
export class SignaturesService {
  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
  ) {}

  async state(): Promise<Record<SignatureKind, SignatureView | null>> {
    const rows = await this.db
      .select({ signature: officialSignatures, by: users.name, byFirst: users.firstName })
      .from(officialSignatures)
      .leftJoin(users, eq(users.id, officialSignatures.updatedBy));
    const state = Object.fromEntries(SIGNATURE_KINDS.map((k) => [k, null])) as Record<SignatureKind, SignatureView | null>;
    for (const { signature: s, by, byFirst } of rows) {
      state[s.kind] = {
        kind: s.kind,
        name: s.signerName,
        title: s.signerTitle,
        image_url: `/api${pathOf(endpoints.signatures.image, { kind: s.kind })}?v=${s.imageSha256.slice(0, 12)}`,
        width: s.width,
        height: s.height,
        updated_at: s.updatedAt.toISOString(),
        updated_by: by ? [byFirst, by].filter(Boolean).join(' ') : null,
      };
    }
    return state;
  }

  /** Adds a signature (signatures.create) or replaces one (signatures.edit). */
  async save(actor: Actor, input: { kind: SignatureKind; name: string; title: string; image: Buffer }) {
    const [existing] = await this.db.select().from(officialSignatures).where(eq(officialSignatures.kind, input.kind));
    authorize(existing ? signaturePolicy.replace(actor) : signaturePolicy.add(actor));
    const { png, width, height } = await processSignatureImage(input.image);
    const sha = createHash('sha256').update(png).digest('hex');
    const key = `signatures/${input.kind}-${sha.slice(0, 16)}.png`;
    await this.storage.put(key, png);
    try {
      await this.db.transaction(async (tx) => {
        const values = { signerName: input.name, signerTitle: input.title, imageKey: key, imageSha256: sha, width, height, updatedAt: new Date(), updatedBy: actor.id };
        await tx
          .insert(officialSignatures)
          .values({ kind: input.kind, ...values })
          .onConflictDoUpdate({ target: officialSignatures.kind, set: values });
        await recordAudit(
          tx,
          {
            action: existing ? 'signature.replaced' : 'signature.added',
            subjectType: 'signature',
            subjectId: input.kind,
            details: { name: input.name, title: input.title, image_sha256: sha },
          },
          actor,
        );
      });
    } catch (error) {
      if (key !== existing?.imageKey) await this.storage.delete(key);
      throw error;
    }
    // The previous image stays until now so that a failed save never leaves a signature without one.
    if (existing && existing.imageKey !== key) await this.deleteUnlessLaunched(existing.imageKey);
  }

  async remove(actor: Actor, kind: SignatureKind): Promise<void> {
    authorize(signaturePolicy.remove(actor));
    const [existing] = await this.db.select().from(officialSignatures).where(eq(officialSignatures.kind, kind));
    if (!existing) throw new AppError('not_found');
    await this.db.transaction(async (tx) => {
      await tx.delete(officialSignatures).where(eq(officialSignatures.kind, kind));
      await recordAudit(tx, { action: 'signature.deleted', subjectType: 'signature', subjectId: kind, details: { name: existing.signerName } }, actor);
    });
    await this.deleteUnlessLaunched(existing.imageKey);
  }

  /** A batch being generated prints the images it was launched with (its snapshot): those stay. */
  private async deleteUnlessLaunched(imageKey: string): Promise<void> {
    const [used] = await this.db
      .select({ id: generations.id })
      .from(generations)
      .where(and(inArray(generations.status, ['ready_for_generation', 'in_progress', 'failed']), sql`${generations.signatureSnapshot} @> ${JSON.stringify([{ imageKey }])}::jsonb`))
      .limit(1);
    if (!used) await this.storage.delete(imageKey);
  }

  async image(kind: SignatureKind): Promise<Buffer> {
    const [existing] = await this.db.select().from(officialSignatures).where(eq(officialSignatures.kind, kind));
    const bytes = existing ? await this.storage.get(existing.imageKey) : null;
    if (!bytes) throw new AppError('not_found');
    return bytes;
  }
}
