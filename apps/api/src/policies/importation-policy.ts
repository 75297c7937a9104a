import { holdsAny, type Actor } from './actor.ts';
import { generationPolicy, type BatchFacts } from './generation-policy.ts';
import { firstDenial, type Decision } from './policy.ts';

/** An import (a list being read into a batch) is followed by whoever may follow its batch's imports. */
export const importationPolicy = {
  follow: (actor: Actor, importation: { batch: BatchFacts }): Decision => generationPolicy.followImport(actor, importation.batch),

  /**
   * A resumable upload (a list or photos zip on its way, ADR 0150) is its creator's only, while they
   * may still check lists: anyone else is told it does not exist.
   */
  useUpload: (actor: Actor, upload: { ownerId: number }): Decision =>
    firstDenial(
      () => (upload.ownerId === actor.id ? true : 'hidden'),
      () => (holdsAny(actor, ['generation.create']) ? true : 'forbidden'),
    ),
};
