import {
  BATCH_STAFF_PERMISSIONS,
  isPublished,
  VALIDATION_OPEN_STATUSES,
  type GenerationAbilities,
  type GenerationStatus,
  type Permission,
  type SignatureStatus,
} from '@sceau/contracts';
import type { SQL } from 'drizzle-orm';
import { generations } from '../db/schema.ts';
import { holdsAny, type Actor } from './actor.ts';
import { firstDenial, judge, type Decision, type Refusal } from './policy.ts';
import { isWithin, withinCondition, type Scope } from './scope.ts';

/** What the batch rules read of a batch (generation). */
export interface BatchFacts extends Scope {
  status: GenerationStatus;
  signatureStatus: SignatureStatus;
  revokedAt: Date | null;
}

/**
 * The keys a batch's diplomas were produced with (QR codes, PDF signatures, root) and the key the
 * platform signs with now (ADR 0148). A batch made with a key since retired must not be published:
 * its root would be anchored after the retirement, and every verifier would refuse its diplomas.
 */
export interface SigningKeyFacts {
  batchKids: readonly string[];
  activeKid: string;
}

const signedWithActiveKey = (keys: SigningKeyFacts | undefined) => (): Decision => {
  const retired = keys?.batchKids.find((kid) => kid !== keys.activeKid);
  return retired === undefined ? true : { field: 'signing_key', message: { key: 'field.batch_signing_key_retired', params: { kid: retired } }, conflict: true };
};

/** A batch is launched when ready, or relaunched after a failed generation (it resumes where it stopped). */
const LAUNCHABLE_STATUSES: readonly GenerationStatus[] = ['ready_for_generation', 'failed'];
/** A list is added to a batch until its candidates are validated. */
const IMPORTABLE_STATUSES: readonly GenerationStatus[] = ['created', 'pending_validation'];
/** A batch whose PDFs exist (before or after the official signature). */
const PRINTED_STATUSES: readonly GenerationStatus[] = ['ready_for_signature', 'completed'];

const VIEW: readonly Permission[] = ['generation.view', 'generation.create', 'generation.generate'];

const inScope = (actor: Actor, batch: BatchFacts) => (): Decision => (isWithin(actor.scope, batch) ? true : 'hidden');
const needs =
  (actor: Actor, ...permissions: Permission[]) =>
  (): Decision =>
    holdsAny(actor, permissions) ? true : 'forbidden';
const when = (ok: boolean) => (): Decision => (ok ? true : 'state');

/** Published and not revoked as a whole: what may leave the platform (shared, broadcast) or be revoked. */
export const isLive = (batch: Pick<BatchFacts, 'status' | 'revokedAt'>) => isPublished(batch.status) && batch.revokedAt === null;
const published = isLive;

/**
 * Batches (generations): who may see one and act on it. Scope first (a batch outside the actor's
 * school, centre or province does not exist for it), then the permission, then the batch's state.
 */
export const generationPolicy = {
  /** The batches an actor may see at all, as a SQL condition (the list form of `view`). */
  visibleCondition(actor: Actor): SQL | undefined {
    return withinCondition(actor.scope, generations);
  },

  view: (actor: Actor, batch: BatchFacts) => firstDenial(inScope(actor, batch), needs(actor, ...VIEW)),

  /** A new draft (list check, national results) placed at `place`: inside the actor's scope. */
  create: (actor: Actor, place: Scope) =>
    firstDenial(needs(actor, 'generation.create'), () => (isWithin(actor.scope, place) ? true : { field: 'province_id', message: 'field.province_outside_scope' })),

  importList: (actor: Actor, batch: BatchFacts) => firstDenial(inScope(actor, batch), needs(actor, 'generation.create'), when(IMPORTABLE_STATUSES.includes(batch.status))),

  /**
   * A photos zip added to a batch holding its candidates (ADR 0147): by who makes batches, until
   * launch (pending validation or ready for generation; a new photo sends a ready batch back to
   * validation). A draft takes its zip with its list; a launched batch takes none.
   */
  addPhotos: (actor: Actor, batch: BatchFacts) =>
    firstDenial(inScope(actor, batch), needs(actor, 'generation.create'), when((VALIDATION_OPEN_STATUSES as readonly string[]).includes(batch.status))),

  followImport: (actor: Actor, batch: BatchFacts) => firstDenial(inScope(actor, batch), needs(actor, 'generation.create', 'generation.view')),

  validatePhotos: (actor: Actor, batch: BatchFacts) =>
    firstDenial(inScope(actor, batch), needs(actor, 'validation.photo'), when((VALIDATION_OPEN_STATUSES as readonly string[]).includes(batch.status))),

  validateData: (actor: Actor, batch: BatchFacts) =>
    firstDenial(inScope(actor, batch), needs(actor, 'validation.data'), when((VALIDATION_OPEN_STATUSES as readonly string[]).includes(batch.status))),

  /** The validation lists and a candidate's photo: read by validators, and by whoever follows rejections. */
  viewCandidates: (actor: Actor, batch: BatchFacts) =>
    firstDenial(inScope(actor, batch), needs(actor, 'validation.photo', 'validation.data', 'generation.view.rejected', 'generation.view')),

  viewRejected: (actor: Actor, batch: BatchFacts) => firstDenial(inScope(actor, batch), needs(actor, 'validation.photo', 'validation.data', 'generation.view.rejected')),

  launch: (actor: Actor, batch: BatchFacts) => firstDenial(inScope(actor, batch), needs(actor, 'generation.generate'), when(LAUNCHABLE_STATUSES.includes(batch.status))),

  /** Reading the launch step (signatures offered, status) needs the permission, whatever the state. */
  prepareLaunch: (actor: Actor, batch: BatchFacts) => firstDenial(inScope(actor, batch), needs(actor, 'generation.generate')),

  /**
   * A watermarked preview of a candidate's diploma: for those who may launch, so that they look at
   * a real one before signing; at any state but cancelled (a specimen is no diploma).
   */
  preview: (actor: Actor, batch: BatchFacts) => firstDenial(inScope(actor, batch), needs(actor, 'generation.generate'), when(batch.status !== 'cancelled')),

  /**
   * The official signature (anchoring) of a generated batch; with the batch's signing keys known
   * (the signature step), refused while they are not the active key (ADR 0148).
   */
  sign: (actor: Actor, batch: BatchFacts, keys?: SigningKeyFacts) =>
    firstDenial(inScope(actor, batch), needs(actor, 'generation.generate'), when(batch.status === 'ready_for_signature'), signedWithActiveKey(keys)),

  /** Published diplomas are revoked, never deleted; a batch being generated must finish or fail first. */
  cancel: (actor: Actor, batch: BatchFacts) =>
    firstDenial(
      inScope(actor, batch),
      needs(actor, 'generation.create', 'generation.generate'),
      when(batch.signatureStatus === 'not_started' && batch.status !== 'in_progress' && batch.status !== 'cancelled'),
    ),

  downloadAll: (actor: Actor, batch: BatchFacts) => firstDenial(inScope(actor, batch), needs(actor, 'generation.download.many'), when(PRINTED_STATUSES.includes(batch.status))),

  downloadOne: (actor: Actor, batch: BatchFacts) => firstDenial(inScope(actor, batch), needs(actor, 'generation.download.one'), when(PRINTED_STATUSES.includes(batch.status))),

  /** Only what is published (and not revoked) leaves the platform by e-mail. */
  shareByEmail: (actor: Actor, batch: BatchFacts) => firstDenial(inScope(actor, batch), needs(actor, 'generation.share.email'), when(published(batch))),

  broadcast: (actor: Actor, batch: BatchFacts) => firstDenial(inScope(actor, batch), needs(actor, 'broadcast.send'), when(published(batch))),

  viewBroadcast: (actor: Actor, batch: BatchFacts) => firstDenial(inScope(actor, batch), needs(actor, 'generation.view', 'broadcast.send')),

  /** Revoking a whole published batch writes its root to the registry: for ever. */
  revoke: (actor: Actor, batch: BatchFacts) => firstDenial(inScope(actor, batch), needs(actor, 'diplomas.revoke'), when(published(batch))),

  /** The batch's history (who did what, when): its staff, in its scope, at any state. */
  viewHistory: (actor: Actor, batch: BatchFacts) => firstDenial(inScope(actor, batch), needs(actor, ...BATCH_STAFF_PERMISSIONS)),

  /** What `actor` may do on the batch; `keys` (the batch's signing keys) when the caller read them, else `sign` ignores them. */
  abilities(actor: Actor, batch: BatchFacts, keys?: SigningKeyFacts): GenerationAbilities {
    return generationPolicy.judge(actor, batch, keys).abilities;
  },

  /**
   * The abilities, and why one is refused when its rule says why: `sign` of a batch made with a key
   * since retired (ADR 0148), shown by the web in place of the signature button.
   */
  judge(actor: Actor, batch: BatchFacts, keys?: SigningKeyFacts): { abilities: GenerationAbilities; refusals: Partial<Record<keyof GenerationAbilities, Refusal>> } {
    const p = generationPolicy;
    return judge({
      view: () => p.view(actor, batch),
      import_list: () => p.importList(actor, batch),
      add_photos: () => p.addPhotos(actor, batch),
      validate_photos: () => p.validatePhotos(actor, batch),
      validate_data: () => p.validateData(actor, batch),
      view_rejected: () => p.viewRejected(actor, batch),
      launch: () => p.launch(actor, batch),
      sign: () => p.sign(actor, batch, keys),
      cancel: () => p.cancel(actor, batch),
      download_all: () => p.downloadAll(actor, batch),
      download_one: () => p.downloadOne(actor, batch),
      share_by_email: () => p.shareByEmail(actor, batch),
      broadcast: () => p.broadcast(actor, batch),
      revoke: () => p.revoke(actor, batch),
      preview: () => p.preview(actor, batch),
      view_history: () => p.viewHistory(actor, batch),
    });
  },
};
