import { isPublished, type GenerationStatus } from '@sceau/contracts';
import { holds, type Actor } from './actor.ts';
import { firstDenial, type Decision } from './policy.ts';
import { isWithin, type Scope } from './scope.ts';

/** What the diploma rules read: its batch's place and state, and its own revocation. */
export interface DiplomaFacts {
  batch: Scope & { status: GenerationStatus; revokedAt: Date | null };
  revokedAt: Date | null;
}

/**
 * One diploma. Its place is its batch's: staff act on it only inside their scope. Revoking writes
 * its hash to the registry for ever, so it needs `diplomas.revoke` and a published, unrevoked diploma.
 */
export const diplomaPolicy = {
  revoke: (actor: Actor, diploma: DiplomaFacts) =>
    firstDenial(
      () => (isWithin(actor.scope, diploma.batch) ? true : 'hidden'),
      () => (holds(actor, 'diplomas.revoke') ? true : 'forbidden'),
      () => (isPublished(diploma.batch.status) && diploma.batch.revokedAt === null && diploma.revokedAt === null ? true : 'state'),
    ) satisfies Decision,
};
