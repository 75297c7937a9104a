import type { SignatureKind } from '@sceau/contracts';
import { createDiplomaRenderer, type DiplomaRenderer } from '@sceau/pdf';
import { and, asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { centres, educProvinces, examSessions, generationItems, institutions, options } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { FileStorage } from '../../lib/storage.ts';
import type { Actor } from '../../policies/actor.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';
import { batchFor } from './batch-access.ts';
import { batchDesign } from './batch-design.ts';
import { issueDate } from './issuing-credentials.ts';
import { printedFields } from './printed-fields.ts';

/** The word across a specimen, and what stands in its QR codes and number: nothing a verifier would accept. */
export const SPECIMEN_MARK = 'SPÉCIMEN';
const SPECIMEN_QR_TEXT = 'SPECIMEN SANS VALEUR';
/** Renderers kept warm (per template, its version and signatures): a preview is asked again and again while checking. */
const RENDERERS_KEPT = 4;

/**
 * "SPÉCIMEN" previews (issue 15 item 7): a candidate's diploma as the batch will print it (its
 * template, its official signatures, the candidate's data and photo, today's date), unsigned,
 * watermarked over the whole page, with no credential attached and QR codes that say "specimen".
 * For those who may launch (generation policy `preview`); nothing is stored.
 */
export class SpecimenService {
  private readonly renderers = new Map<string, Promise<DiplomaRenderer>>();

  constructor(
    private readonly db: Db,
    private readonly storage: Pick<FileStorage, 'get'>,
    private readonly config: Pick<Config, 'issuer' | 'publicUrl'>,
  ) {}

  private renderer(key: string, make: () => Promise<DiplomaRenderer>): Promise<DiplomaRenderer> {
    let renderer = this.renderers.get(key);
    if (!renderer) {
      if (this.renderers.size >= RENDERERS_KEPT) this.renderers.delete(this.renderers.keys().next().value!);
      renderer = make();
      // A failed set-up is not kept: the next preview tries again.
      renderer.catch(() => this.renderers.delete(key));
      this.renderers.set(key, renderer);
    }
    return renderer;
  }

  /** The specimen PDF of the batch's candidate `itemId`, or of its first candidate not rejected. */
  async render(actor: Actor, generationId: number, itemId?: number, proposed?: SignatureKind[]): Promise<{ pdf: Uint8Array; candidateCode: string }> {
    const batch = await batchFor(this.db, actor, generationId, generationPolicy.preview);
    const [row] = await this.db
      .select({ item: generationItems, option: options.name, school: institutions.name, centre: centres.name, province: educProvinces.name, year: examSessions.year })
      .from(generationItems)
      .innerJoin(options, eq(options.id, generationItems.optionId))
      .innerJoin(institutions, eq(institutions.id, generationItems.institutionId))
      .innerJoin(centres, eq(centres.id, generationItems.centreId))
      .innerJoin(educProvinces, eq(educProvinces.id, institutions.educProvinceId))
      .innerJoin(examSessions, eq(examSessions.id, batch.sessionId))
      .where(
        itemId === undefined
          ? and(eq(generationItems.generationId, batch.id), eq(generationItems.rejected, false))
          : and(eq(generationItems.generationId, batch.id), eq(generationItems.id, itemId)),
      )
      .orderBy(asc(generationItems.id))
      .limit(1);
    if (!row) throw new AppError('not_found');
    const { item } = row;

    const look = await batchDesign(this.db, this.storage, batch, { proposed });
    const key = `${look.template.id}:${look.template.updatedAt.getTime()}:${look.signatures.map((s) => `${s.kind}=${s.imageSha256}/${s.signerName}/${s.signerTitle}`).join(',')}`;
    const renderer = await this.renderer(key, () => createDiplomaRenderer({ template: look.design, signatureImages: look.signatureImages }));

    const fields = printedFields(
      {
        diploma_id: SPECIMEN_MARK,
        last_name: item.lastName,
        middle_name: item.middleName,
        first_name: item.firstName,
        birth_date: item.birthDate,
        birth_place: item.birthPlace,
        gender: item.gender,
        option: row.option,
        school: row.school,
        centre: row.centre,
        session_year: row.year,
        percentage: item.percentageTenths / 10,
        issue_date: issueDate(),
        educ_province: row.province,
        candidate_code: item.candidateCode,
      },
      this.config.issuer.name,
    );
    const base = this.config.publicUrl.replace(/\/$/, '');
    const draw = (photo: Buffer) =>
      renderer.render(
        fields,
        new Uint8Array(photo),
        { verifyUrl: `${base}/verify/SPECIMEN`, offlinePayload: SPECIMEN_QR_TEXT },
        new TextEncoder().encode(JSON.stringify({ specimen: true })),
        { watermark: SPECIMEN_MARK },
      );
    const stored = item.photoKey ? await this.storage.get(item.photoKey) : null;
    let pdf: Uint8Array;
    try {
      pdf = await draw(stored ?? (await missingPhoto()));
    } catch (error) {
      // A photo the renderer cannot read shows as the empty box: the preview is about the rest
      // (the photo validation page is where a bad photo is dealt with).
      if (!stored) throw error;
      pdf = await draw(await missingPhoto());
    }
    return { pdf, candidateCode: item.candidateCode };
  }
}

let placeholder: Promise<Buffer> | undefined;
/** A candidate without a photo yet: a plain grey box, so the specimen shows where it goes. */
function missingPhoto(): Promise<Buffer> {
  placeholder ??= sharp({ create: { width: 300, height: 400, channels: 3, background: '#d5dae1' } })
    .jpeg({ quality: 80 })
    .toBuffer();
  return placeholder;
}
