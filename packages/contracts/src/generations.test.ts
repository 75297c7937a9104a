import { describe, expect, it } from 'vitest';
import { canMoveGeneration, canMoveSignature, GENERATION_STATUSES, GENERATION_TRANSITIONS, isPublished } from './generations.ts';

describe('generation statuses', () => {
  it('lists a transition for every status, towards known statuses only', () => {
    for (const status of GENERATION_STATUSES) {
      for (const next of GENERATION_TRANSITIONS[status]) expect(GENERATION_STATUSES).toContain(next);
    }
  });

  it('follows the issuing flow and nothing else', () => {
    const flow = ['created', 'pending_validation', 'ready_for_generation', 'in_progress', 'ready_for_signature', 'completed'] as const;
    for (let i = 0; i + 1 < flow.length; i++) expect(canMoveGeneration(flow[i]!, flow[i + 1]!)).toBe(true);
    expect(canMoveGeneration('created', 'completed')).toBe(false);
    expect(canMoveGeneration('pending_validation', 'in_progress')).toBe(false);
    expect(canMoveGeneration('completed', 'cancelled')).toBe(false);
    expect(canMoveGeneration('cancelled', 'created')).toBe(false);
    expect(canMoveGeneration('in_progress', 'cancelled')).toBe(false);
  });

  it('publishes only completed batches, and finishes a signature only from in progress', () => {
    expect(GENERATION_STATUSES.filter(isPublished)).toEqual(['completed']);
    expect(canMoveSignature('not_started', 'finished')).toBe(false);
    expect(canMoveSignature('in_progress', 'finished')).toBe(true);
    expect(canMoveSignature('finished', 'in_progress')).toBe(false);
  });
});
