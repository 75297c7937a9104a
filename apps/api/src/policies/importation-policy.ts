import type { Actor } from './actor.ts';
import { generationPolicy, type BatchFacts } from './generation-policy.ts';
import type { Decision } from './policy.ts';

/** An import (a list being read into a batch) is followed by whoever may follow its batch's imports. */
export const importationPolicy = {
  follow: (actor: Actor, importation: { batch: BatchFacts }): Decision => generationPolicy.followImport(actor, importation.batch),
};
