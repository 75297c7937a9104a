import { idParam } from '../api.ts';
import { endpoint } from '../endpoint.ts';
import {
  generationIdParam,
  imageToBase64Query,
  imageToBase64Response,
  itemIdParam,
  itemPhotoParams,
  itemPhotoQuery,
  rejectedItemsQuery,
  rejectItemBody,
  reopenItemBody,
  validateDataBody,
  validatePhotosBody,
  validationChangeResponse,
  validationFiltersResponse,
  validationItemsQuery,
  validationItemsResponse,
  validationsQuery,
  validationsResponse,
} from '../validations.ts';

const tags = ['validations'];
const photos = { anyPermission: ['validation.photo'], section: 'validation' } as const;
const data = { anyPermission: ['validation.data'], section: 'validation' } as const;
const anyValidation = { anyPermission: ['validation.photo', 'validation.data'] } as const;
const rejectedList = { anyPermission: ['validation.photo', 'validation.data', 'generation.view.rejected'] } as const;
/** A candidate's photo is shown wherever a candidate is: validation screens, the rejected list, the batch page. */
const seePhoto = { anyPermission: ['validation.photo', 'validation.data', 'generation.view.rejected', 'generation.view'] } as const;

/** Photo and data validation (spec section 7 "Validation"; /validate-picture, /validate-data, /student-reject, /validated; ADR 0070). */
export const validationsEndpoints = {
  photoItems: endpoint({
    method: 'GET',
    path: '/validations/photos/:generationId',
    access: photos,
    tags,
    summary: "A page of a batch's candidates with their photo's state",
    params: generationIdParam,
    query: validationItemsQuery,
    responses: { 200: validationItemsResponse },
  }),
  dataItems: endpoint({
    method: 'GET',
    path: '/validations/data/:generationId',
    access: data,
    tags,
    summary: "A page of a batch's candidates with their data's state",
    params: generationIdParam,
    query: validationItemsQuery,
    responses: { 200: validationItemsResponse },
  }),
  filters: endpoint({
    method: 'GET',
    path: '/validations/:generationId/filters',
    access: rejectedList,
    tags,
    summary: "The schools, centres and options of a batch's candidates: the choices of the lists' filters",
    params: generationIdParam,
    responses: { 200: validationFiltersResponse },
  }),
  /** Behind the bearer token: the web fetches it and shows it as an object URL. */
  photo: endpoint({
    method: 'GET',
    path: '/validations/photos/:generationId/items/:itemId/photo',
    access: seePhoto,
    tags,
    summary: "A candidate's stored photo (JPEG)",
    params: itemPhotoParams,
    query: itemPhotoQuery,
    file: 'image/jpeg',
    responses: {},
  }),
  imageToBase64: endpoint({
    method: 'GET',
    path: '/image-to-base64',
    access: photos,
    tags,
    summary: "A candidate's photo as a data URL, for the browser's image editor",
    query: imageToBase64Query,
    responses: { 200: imageToBase64Response },
  }),
  validatePhotos: endpoint({
    method: 'POST',
    path: '/validations/photos/validate',
    access: photos,
    tags,
    summary: 'Validate photos (several, or one as it is, edited, or replaced by the editor’s result); or reject one',
    body: validatePhotosBody,
    responses: { 200: validationChangeResponse },
  }),
  uploadPhoto: endpoint({
    method: 'POST',
    path: '/validations/photos/:itemId/upload',
    access: photos,
    tags,
    summary:
      'Upload a photo for a candidate (one imported without, or a better one): multipart `photo`, a JPEG, PNG or WebP up to 10 MB, normalised as the import does; it then waits for validation',
    params: itemIdParam,
    multipart: true,
    responses: { 200: validationChangeResponse },
  }),
  rejectPhoto: endpoint({
    method: 'POST',
    path: '/validations/photos/reject',
    access: photos,
    tags,
    summary: 'Reject a candidate for its photo, with the reason',
    body: rejectItemBody,
    responses: { 200: validationChangeResponse },
  }),
  validateData: endpoint({
    method: 'POST',
    path: '/validations/data/validate',
    access: data,
    tags,
    summary: "Correct a candidate's data and validate it, or validate several unchanged",
    body: validateDataBody,
    responses: { 200: validationChangeResponse },
  }),
  /** A DELETE with a body, as the spec has it. */
  rejectData: endpoint({
    method: 'DELETE',
    path: '/validations/data/reject',
    access: data,
    tags,
    summary: 'Reject a candidate for its data, with the reason',
    body: rejectItemBody,
    responses: { 200: validationChangeResponse },
  }),
  reopenPhoto: endpoint({
    method: 'POST',
    path: '/validations/photos/reopen',
    access: photos,
    tags,
    summary: "Put a candidate's photo back to pending (and lift a rejection made for it)",
    body: reopenItemBody,
    responses: { 200: validationChangeResponse },
  }),
  reopenData: endpoint({
    method: 'POST',
    path: '/validations/data/reopen',
    access: data,
    tags,
    summary: "Put a candidate's data back to pending (and lift a rejection made for it)",
    body: reopenItemBody,
    responses: { 200: validationChangeResponse },
  }),
  rejectedItems: endpoint({
    method: 'GET',
    path: '/generations/:id/items/rejected',
    access: rejectedList,
    tags,
    summary: "A batch's rejected candidates, with the reason, who and when",
    params: idParam,
    query: rejectedItemsQuery,
    responses: { 200: validationItemsResponse },
  }),
  batches: endpoint({
    method: 'GET',
    path: '/validations',
    access: anyValidation,
    tags,
    summary: "The user's scope's batches in validation (or ready for generation), with their counters",
    query: validationsQuery,
    responses: { 200: validationsResponse },
  }),
} as const;
