// What a batch's diplomas look like: its template, with the official signatures it carries (the
// snapshot taken at launch, or /settings as it is now before the launch) and their images. Shared
// by the PDF phase of issuing and by the specimen preview, so a preview shows what will be printed.
import type { SignatureKind } from '@sceau/contracts';
import type { DiplomaTemplateInput, SignatureImages, SignatureRole } from '@sceau/pdf';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type generations, officialSignatures, templates } from '../../db/schema.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { BatchDataError } from './issuing-deps.ts';

type BatchRow = typeof generations.$inferSelect;
type SignatureRow = Pick<typeof officialSignatures.$inferSelect, 'kind' | 'signerName' | 'signerTitle' | 'imageKey' | 'imageSha256'>;

/** The signature kinds of /settings and the template's boxes they fill. */
export const SIGNATURE_ROLES: Record<string, SignatureRole> = { ministry: 'ministry', inspector_general: 'inspectorGeneral', jury: 'juryPresident' };

export interface BatchDesign {
  template: typeof templates.$inferSelect;
  /** The template's design with each signature box titled and named as registered, limited to the chosen ones. */
  design: DiplomaTemplateInput;
  signatures: SignatureRow[];
  signatureImages: SignatureImages;
  /** Whether the batch's choice of signatures applies (a launched batch), or every configured one. */
  chosen: boolean;
}

/**
 * The batch's design. Throws BatchDataError when a signature chosen at launch has been removed
 * from /settings since (the batch cannot print what it promised).
 */
export async function batchDesign(db: Db, storage: Pick<FileStorage, 'get'>, batch: BatchRow, options: { proposed?: SignatureKind[] } = {}): Promise<BatchDesign> {
  const [template] = await db.select().from(templates).where(eq(templates.id, batch.templateId));
  if (!template) throw new BatchDataError(`template ${batch.templateId} not found`);
  // The signatures as they stood at launch (the snapshot); a batch launched before snapshots
  // existed, or not launched yet, reads /settings as it is now.
  const configured: SignatureRow[] = batch.signatureSnapshot ?? (await db.select().from(officialSignatures).orderBy(asc(officialSignatures.kind)));
  // The signatures chosen at launch, exactly (every configured one for a batch launched before the
  // choice); before a launch, a preview may propose a choice (the launch page's, not saved yet).
  const proposed = batch.signatureSnapshot === null && options.proposed ? options.proposed.filter((kind) => configured.some((s) => s.kind === kind)) : undefined;
  const chosen = proposed ?? batch.signatureKinds;
  const gone = (chosen ?? []).filter((kind) => !configured.some((s) => s.kind === kind));
  if (gone.length) throw new BatchDataError(`official signature removed since the launch: ${gone.join(', ')} (add it again on /settings, or cancel the batch)`);
  const signatures = chosen ? configured.filter((s) => chosen.includes(s.kind)) : configured;
  const signatureImages: SignatureImages = {};
  for (const s of signatures) {
    const bytes = await storage.get(s.imageKey);
    const target = SIGNATURE_ROLES[s.kind];
    if (bytes && target) signatureImages[target] = new Uint8Array(bytes);
  }
  const design = structuredClone(template.design) as unknown as DiplomaTemplateInput & { signatures?: { role: string; title: string; signerName: string }[] };
  if (chosen) design.signatures = design.signatures?.filter((box) => chosen.some((kind) => SIGNATURE_ROLES[kind] === box.role));
  for (const box of design.signatures ?? []) {
    const kind = Object.entries(SIGNATURE_ROLES).find(([, r]) => r === box.role)?.[0];
    const signer = signatures.find((s) => s.kind === kind);
    if (signer) Object.assign(box, { title: signer.signerTitle, signerName: signer.signerName });
  }
  return { template, design, signatures, signatureImages, chosen: chosen !== null };
}
