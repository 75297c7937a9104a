import type { Check, CheckName, Verdict, VerificationSource } from './types.ts';

/** Checks whose failure means the thing presented is not what the ministry issued. */
const FORGERY_CHECKS: readonly CheckName[] = ['integrity', 'issuer_signature', 'issuer_identity', 'pdf_signature'];
/** Checks that must all have passed for 'authentic' (plus pdf_signature for a PDF). */
const REQUIRED_CHECKS: readonly CheckName[] = ['integrity', 'issuer_signature', 'issuer_identity', 'anchored', 'not_revoked'];

/**
 * The verdict from the checks, in this order (README.md "Verdict rules"):
 *  1. any failed integrity / issuer_signature / issuer_identity / pdf_signature → altered
 *  2. not_revoked failed (the diploma's hash or its batch root revoked on chain) → revoked
 *  3. anchored failed: 'unpublished' when the caller knows the batch is not signed yet, else unknown
 *  4. nothing presented claims to be a diploma, or the id is not known → unknown (or unpublished)
 *  5. any required check not made → incomplete
 *  6. authentic: every required check present and passed.
 */
export function decideVerdict(checks: readonly Check[], source: VerificationSource): Verdict {
  const find = (name: CheckName) => checks.find((c) => c.name === name);
  if (checks.some((c) => c.status === 'failed' && FORGERY_CHECKS.includes(c.name))) return 'altered';
  if (find('not_revoked')?.status === 'failed') return 'revoked';
  const anchored = find('anchored');
  if (anchored?.status === 'failed') return anchored.code === 'not_yet_published' ? 'unpublished' : 'unknown';
  const integrity = find('integrity');
  if (integrity?.code === 'not_a_diploma') return 'unknown';
  if (integrity?.code === 'diploma_not_found') return integrity.details?.unpublished === true ? 'unpublished' : 'unknown';
  const required = source === 'pdf' ? [...REQUIRED_CHECKS, 'pdf_signature' as const] : REQUIRED_CHECKS;
  const allPassed = required.every((name) => find(name)?.status === 'passed') && checks.every((c) => c.status === 'passed');
  return allPassed ? 'authentic' : 'incomplete';
}
