/**
 * Generation batches (spec sections 3 and 4): their statuses, the signature statuses, and the only
 * transitions allowed between them. The server refuses any other move; the web app reads the same
 * table to know which actions to offer.
 */

export const GENERATION_STATUSES = [
  'created',
  'pending_validation',
  'ready_for_generation',
  'in_progress',
  'ready_for_signature',
  'completed',
  'failed',
  'cancelled',
] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

export const SIGNATURE_STATUSES = ['not_started', 'in_progress', 'finished'] as const;
export type SignatureStatus = (typeof SIGNATURE_STATUSES)[number];

/**
 * created             the list is stored; candidates are being imported
 * pending_validation  candidates imported; photos and data being validated
 * ready_for_generation every candidate validated or rejected
 * in_progress         launched with a one-time code; credentials and PDFs being generated
 * ready_for_signature generated; waiting for the official signature (anchoring)
 * completed           signed and anchored: published, verifiable
 * failed              import or generation failed; may be retried
 * cancelled           withdrawn before publication
 */
export const GENERATION_TRANSITIONS: Record<GenerationStatus, readonly GenerationStatus[]> = {
  created: ['pending_validation', 'failed', 'cancelled'],
  pending_validation: ['ready_for_generation', 'cancelled'],
  ready_for_generation: ['pending_validation', 'in_progress', 'cancelled'],
  in_progress: ['ready_for_signature', 'failed'],
  ready_for_signature: ['completed', 'cancelled'],
  completed: [],
  failed: ['created', 'in_progress', 'cancelled'],
  cancelled: [],
};

export const SIGNATURE_TRANSITIONS: Record<SignatureStatus, readonly SignatureStatus[]> = {
  not_started: ['in_progress'],
  // Anchoring retries stay "in progress": only a mined transaction moves it to finished.
  in_progress: ['finished'],
  finished: [],
};

export function canMoveGeneration(from: GenerationStatus, to: GenerationStatus): boolean {
  return GENERATION_TRANSITIONS[from].includes(to);
}

export function canMoveSignature(from: SignatureStatus, to: SignatureStatus): boolean {
  return SIGNATURE_TRANSITIONS[from].includes(to);
}

/** A batch is published (its diplomas verify as issued) only once completed. */
export function isPublished(status: GenerationStatus): boolean {
  return status === 'completed';
}

export const ITEM_VALIDATION_STATES = ['pending', 'validated', 'rejected'] as const;
export type ItemValidationState = (typeof ITEM_VALIDATION_STATES)[number];

export const GENERATION_TYPES = ['diplome_etat', 'attestation_reussite'] as const;
export type GenerationType = (typeof GENERATION_TYPES)[number];
