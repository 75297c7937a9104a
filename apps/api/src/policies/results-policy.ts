import { holds, type Actor } from './actor.ts';
import { firstDenial, type Decision } from './policy.ts';
import { isWithin, type Scope } from './scope.ts';

/**
 * The national results registry, as staff read it (`find-{product}`): a candidate's result is
 * found only by staff whose scope holds the candidate's school; a result elsewhere is as unknown
 * as one that does not exist. Lookups are also rate-limited per account (results-registry-service).
 */
export const resultsPolicy = {
  find: (actor: Actor) => (holds(actor, 'generation.view') ? true : 'forbidden') satisfies Decision,
  read: (actor: Actor, school: Scope) =>
    firstDenial(
      () => resultsPolicy.find(actor),
      () => (isWithin(actor.scope, school) ? true : 'hidden'),
    ),
};
