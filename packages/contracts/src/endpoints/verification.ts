import { errorResponse } from '../api.ts';
import { endpoint } from '../endpoint.ts';
import { candidateCheckResponse, diplomaIdParam, verificationResponse } from '../public-site.ts';

const tags = ['verification'];

/** Verifying a diploma, what its link gives, and the candidate check (spec sections 1, 3 and 7). */
export const verificationEndpoints = {
  /**
   * Results day's hot route (ADR 0102); 429 past the per-address limit (ADR 0100). Its credential
   * discloses `PUBLIC_FIELDS` only (ADR 0134); the holder's full one is `holder.credential`.
   */
  verify: endpoint({
    method: 'GET',
    path: '/verify/:id',
    access: 'public',
    tags,
    summary:
      'Verify a diploma by its id (the /verify/{id} page); also gives independent verifiers its public credential: the fields the page shows, the others hidden (no value, no salt, their hash only), with its unchanged proof and signature',
    params: diplomaIdParam,
    responses: { 200: verificationResponse, 429: errorResponse },
  }),
  verifyDocument: endpoint({
    method: 'POST',
    path: '/generations/verify',
    access: 'public',
    tags,
    summary: 'Verify a document (multipart: cert_document = our PDF, the credential JSON or the QR text; and/or cert_url = a link)',
    multipart: true,
    responses: { 200: verificationResponse, 429: errorResponse },
  }),
  /** Only for a published diploma that is not revoked, itself or with its batch; else 404. */
  pdf: endpoint({
    method: 'GET',
    path: '/verify/:id/pdf',
    access: 'public',
    tags,
    summary: "A published diploma's signed PDF (counted in the public downloads counter)",
    params: diplomaIdParam,
    file: 'application/pdf',
    responses: {},
  }),
  photo: endpoint({
    method: 'GET',
    path: '/verify/:id/photo',
    access: 'public',
    tags,
    summary: "A published diploma's photo (JPEG), shown with its verification",
    params: diplomaIdParam,
    file: 'image/jpeg',
    responses: {},
  }),
  /**
   * The v2 candidate check (ADR 0090): multipart, or JSON with the same fields
   * (`candidateCheckRequest`, read by the route itself). The web may send it to the exam
   * authority's own service instead, at the same path under another base URL.
   */
  candidateCheck: endpoint({
    method: 'POST',
    path: '/v2/verify-candidate',
    access: 'public',
    tags: ['candidate-check'],
    summary: 'Candidate check against the national results: recognised or not, the result, and the published diploma (multipart)',
    multipart: true,
    responses: { 200: candidateCheckResponse, 429: errorResponse },
  }),
} as const;
