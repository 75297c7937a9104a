import type { ZipArchive } from 'archiver';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { diplomas, generationItems, generations } from '../../db/schema.ts';
import { foldedContains, foldedOf } from '../../db/schema/folded.ts';
import { AppError } from '../../lib/errors.ts';
import type { FileStorage } from '../../lib/storage.ts';
import type { Actor } from '../../policies/actor.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';
import { recordAudit } from '../audit/audit-service.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';
import { batchFor } from './batch-access.ts';
import { fillBatchArchive } from './batch-archive.ts';
import { listGenerations, listItems, presentGenerations } from './generations-repository.ts';

/** A page asked for: its number and size. */
interface PageAsked {
  page: number;
  perPage: number;
}

/** Reading batches and downloading what they produced (the dashboard, the batch page, the PDFs and the zip). */
export class GenerationsService {
  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    /** The platform's signing keys, for the batches' `sign` ability (none without an identity). */
    private readonly keys: Pick<MinistryKeys, 'active'> | null = null,
  ) {}

  /** The actor's own batches, and only while they lie in the account's scope (a scope can be narrowed). */
  async listOwn(actor: Actor, { page, perPage, search, session }: PageAsked & { search?: string; session?: number }) {
    const conditions: (SQL | undefined)[] = [eq(generations.createdBy, actor.id), generationPolicy.visibleCondition(actor)];
    if (search) conditions.push(foldedContains(foldedOf(generations.title), search));
    if (session) conditions.push(eq(generations.sessionId, session));
    return listGenerations(this.db, actor, and(...conditions), page, perPage, this.keys);
  }

  /** A batch and a page of its candidates (404 outside the actor's scope). */
  async detail(actor: Actor, generationId: number, filter: PageAsked & { search?: string; institution?: number; centre?: number }) {
    const { id } = await batchFor(this.db, actor, generationId, generationPolicy.view);
    const [view] = await presentGenerations(this.db, [id], actor, this.keys);
    const { items, total } = await listItems(this.db, id, filter);
    return { view: view!, items, total };
  }

  /** Checks the actor may download the batch's zip; answers the batch's id. */
  async exportableBatch(actor: Actor, generationId: number): Promise<number> {
    return (await batchFor(this.db, actor, generationId, generationPolicy.downloadAll)).id;
  }

  /** Streams the batch's zip into `archive`, counting the downloads and recording the export before the zip ends. */
  async fillExport(actor: Actor, generationId: number, archive: ZipArchive): Promise<void> {
    await fillBatchArchive(this.db, this.storage, generationId, archive, async (files) => {
      await this.db
        .update(diplomas)
        .set({ downloads: sql`${diplomas.downloads} + 1` })
        .where(and(eq(diplomas.generationId, generationId), sql`${diplomas.pdfKey} is not null`));
      await recordAudit(this.db, { action: 'generation.exported', subjectType: 'generation', subjectId: generationId, details: { files } }, actor);
    });
  }

  /** A candidate's signed PDF, counted and recorded as downloaded (404 when there is none). */
  async itemPdf(actor: Actor, itemId: number): Promise<{ pdf: Buffer; candidateCode: string }> {
    const [row] = await this.db
      .select({
        diploma: { id: diplomas.id, generationId: diplomas.generationId, candidateCode: diplomas.candidateCode, pdfKey: diplomas.pdfKey },
        generationId: generationItems.generationId,
      })
      .from(generationItems)
      .innerJoin(diplomas, eq(diplomas.itemId, generationItems.id))
      .where(eq(generationItems.id, itemId));
    if (!row || !row.diploma.pdfKey) throw new AppError('not_found');
    await batchFor(this.db, actor, row.generationId, generationPolicy.downloadOne);
    const pdf = await this.storage.get(row.diploma.pdfKey);
    if (!pdf) throw new AppError('not_found');
    await this.db.transaction(async (tx) => {
      await tx
        .update(diplomas)
        .set({ downloads: sql`${diplomas.downloads} + 1` })
        .where(eq(diplomas.id, row.diploma.id));
      await recordAudit(tx, { action: 'diploma.downloaded', subjectType: 'diploma', subjectId: row.diploma.id, generationId: row.diploma.generationId }, actor);
    });
    return { pdf, candidateCode: row.diploma.candidateCode };
  }
}
