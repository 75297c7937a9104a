import { signatureKindParam, signaturesStateResponse } from '../accounts.ts';
import { messageResponse } from '../distribution.ts';
import { endpoint } from '../endpoint.ts';

const tags = ['signatures'] as const;

/** The official signatures (spec section 7, /settings). */
export const signaturesEndpoints = {
  state: endpoint({
    method: 'GET',
    path: '/signatures/state',
    access: { anyPermission: ['signatures.list'], section: 'signatures' },
    tags,
    summary: 'The official signatures',
    responses: { 200: signaturesStateResponse },
  }),
  image: endpoint({
    method: 'GET',
    path: '/signatures/:kind/image',
    access: { anyPermission: ['signatures.list'], section: 'signatures' },
    tags,
    summary: 'A signature image (transparent PNG)',
    params: signatureKindParam,
    file: 'image/png',
    responses: {},
  }),
  /** The parts are read and checked by the route (`signatureFields` and the image). */
  save: endpoint({
    method: 'POST',
    path: '/signatures',
    access: { anyPermission: ['signatures.create', 'signatures.edit'], section: 'signatures' },
    tags,
    summary: 'Add or replace a signature (multipart: kind, name, title, image PNG/JPEG up to 2 MB)',
    multipart: true,
    responses: { 200: messageResponse },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/signatures/:kind',
    access: { anyPermission: ['signatures.delete'], section: 'signatures' },
    tags,
    summary: 'Remove a signature',
    params: signatureKindParam,
    responses: { 200: messageResponse },
  }),
} as const;
