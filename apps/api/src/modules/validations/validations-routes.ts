import multipart from '@fastify/multipart';
import {
  generationIdParam,
  idParam,
  itemIdParam,
  imageToBase64Query,
  imageToBase64Response,
  itemPhotoParams,
  PHOTO_EDIT_LIMITS,
  PHOTO_UPLOAD_MAX_BYTES,
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
  type Requirement,
} from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { FastifyRequest } from 'fastify';
import { actorOf } from '../../policies/actor.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';
import { allowed } from '../../policies/policy.ts';
import { applyPhotoEdits, readEditedImage, readUploadedPhoto } from './photo-editing.ts';
import { batchFilterValues, listValidationBatches, listValidationItems, presentBatches, type ItemFilter } from './validations-repository.ts';
import { ValidationsService, type Aspect } from './validations-service.ts';

const tags = ['validations'];
const photos = { anyPermission: ['validation.photo'], section: 'validation' } as const satisfies Requirement;
const data = { anyPermission: ['validation.data'], section: 'validation' } as const satisfies Requirement;
const anyValidation = { anyPermission: ['validation.photo', 'validation.data'] } as const satisfies Requirement;
/** A candidate's photo is shown wherever a candidate is: validation screens, the rejected list, the batch page. */
const seePhoto = { anyPermission: ['validation.photo', 'validation.data', 'generation.view.rejected', 'generation.view'] } as const satisfies Requirement;

const PHOTO_URL = /^(?:https?:\/\/[^/]+)?\/api\/validations\/photos\/(\d+)\/items\/(\d+)\/photo(?:\?.*)?$/;

/**
 * Photo and data validation (spec section 7 "Validation"; /validate-picture, /validate-data,
 * /student-reject, /validated). ADR 0070.
 */
export const validationsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, services }) => {
  const validations = new ValidationsService(db, services.storage);
  await app.register(multipart, { limits: { fileSize: PHOTO_UPLOAD_MAX_BYTES, files: 1, fields: 5, fieldSize: 256 } });
  const meta = (page: number, perPage: number, total: number) => ({ current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total });

  async function itemsPage(request: FastifyRequest, generationId: number, filter: ItemFilter, rule = generationPolicy.viewCandidates) {
    const batch = await validations.batch(actorOf(request), generationId, rule);
    const [{ items, total }, [generation]] = await Promise.all([listValidationItems(db, batch.id, filter), presentBatches(db, [batch.id], actorOf(request))]);
    return { data: items, meta: meta(filter.page, filter.perPage, total), generation: generation! };
  }

  for (const aspect of ['photo', 'data'] as const) {
    app.get(
      `/validations/${aspect === 'photo' ? 'photos' : 'data'}/:generationId`,
      {
        config: { access: aspect === 'photo' ? photos : data },
        schema: {
          tags,
          summary: aspect === 'photo' ? "A page of a batch's candidates with their photo's state" : "A page of a batch's candidates with their data's state",
          params: generationIdParam,
          querystring: validationItemsQuery,
          response: { 200: validationItemsResponse },
        },
      },
      async (request) => {
        const { page, per_page: perPage = 20, ...filters } = request.query;
        return itemsPage(request, request.params.generationId, { page, perPage, ...filters, on: aspect });
      },
    );
  }

  app.get(
    '/validations/:generationId/filters',
    {
      config: { access: { anyPermission: ['validation.photo', 'validation.data', 'generation.view.rejected'] } },
      schema: {
        tags,
        summary: "The schools, centres and options of a batch's candidates: the choices of the lists' filters",
        params: generationIdParam,
        response: { 200: validationFiltersResponse },
      },
    },
    async (request) => {
      const batch = await validations.batch(actorOf(request), request.params.generationId);
      return { data: await batchFilterValues(db, batch.id) };
    },
  );

  app.get(
    '/validations/photos/:generationId/items/:itemId/photo',
    {
      config: { access: seePhoto },
      schema: { tags, summary: "A candidate's stored photo (JPEG)", params: itemPhotoParams },
    },
    async (request, reply) => {
      const item = await validations.item(actorOf(request), request.params.itemId, request.params.generationId);
      const photo = await validations.readPhoto(item);
      // The URL changes with the photo (`v`), so a private cache may keep it.
      return reply.type('image/jpeg').header('cache-control', 'private, max-age=3600').send(photo);
    },
  );

  app.get(
    '/image-to-base64',
    {
      config: { access: photos },
      schema: { tags, summary: "A candidate's photo as a data URL, for the browser's image editor", querystring: imageToBase64Query, response: { 200: imageToBase64Response } },
    },
    async (request) => {
      const { image } = request.query;
      const fromUrl = PHOTO_URL.exec(image);
      const itemId = fromUrl ? Number(fromUrl[2]) : /^\d{1,15}$/.test(image) ? Number(image) : null;
      if (!itemId) throw new AppError('validation_failed', { fields: { image: ['field.validation_image_reference'] } });
      const item = await validations.item(actorOf(request), itemId, fromUrl ? Number(fromUrl[1]) : undefined);
      const photo = await validations.readPhoto(item);
      return { data: { base64: `data:image/jpeg;base64,${photo.toString('base64')}` } };
    },
  );

  app.post(
    '/validations/photos/validate',
    {
      config: { access: photos },
      // An edited photo may come whole, as a data URL.
      bodyLimit: Math.ceil((PHOTO_EDIT_LIMITS.maxUploadBytes * 4) / 3) + 64 * 1024,
      schema: {
        tags,
        summary: 'Validate photos (several, or one as it is, edited, or replaced by the editor’s result); or reject one',
        body: validatePhotosBody,
        response: { 200: validationChangeResponse },
      },
    },
    async (request) => {
      const body = request.body;
      const actor = actorOf(request);
      if (body.reject) {
        const result = await validations.reject(actor, 'photo', { ...body, item: body.item! }, body.reason!);
        return { data: { message: request.t('messages:validation_photo_rejected'), ...result } };
      }
      if (body.edits || body.image) {
        const target = { generation_id: body.generation_id, item: body.item! };
        let jpeg: Buffer;
        if (body.edits) {
          const item = await validations.item(actor, target.item, target.generation_id, generationPolicy.validatePhotos);
          if (!item.photoKey) throw new AppError('validation_failed', { fields: { item: ['field.validation_no_photo'] } });
          jpeg = await applyPhotoEdits(await validations.readPhoto(item), body.edits);
        } else {
          await validations.item(actor, target.item, target.generation_id, generationPolicy.validatePhotos);
          jpeg = await readEditedImage(body.image!);
        }
        const result = await validations.replacePhoto(actor, target, jpeg, body.edits ? { edits: body.edits } : { source: 'image' });
        return { data: { message: request.t('messages:validation_photo_edited'), ...result } };
      }
      const result = await validations.validatePhotos(actor, body);
      return { data: { message: request.t('messages:validation_photos_validated', { count: result.changed.length }), ...result } };
    },
  );

  app.post(
    '/validations/photos/:itemId/upload',
    {
      config: { access: photos },
      schema: {
        tags,
        summary:
          'Upload a photo for a candidate (one imported without, or a better one): multipart `photo`, a JPEG, PNG or WebP up to 10 MB, normalised as the import does; it then waits for validation',
        consumes: ['multipart/form-data'],
        params: itemIdParam,
        response: { 200: validationChangeResponse },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw new AppError('unsupported_media_type');
      // The body is read whole (within its limit) before any refusal, so that the answer reaches the browser.
      let bytes: Buffer | null = null;
      const tooLarge = () => new AppError('payload_too_large', { fields: { photo: [{ key: 'field.image_too_large', params: { size: PHOTO_UPLOAD_MAX_BYTES / 1024 / 1024 } }] } });
      for await (const part of request.parts()) {
        if (part.type !== 'file') continue;
        if (part.fieldname !== 'photo') {
          part.file.resume();
          continue;
        }
        try {
          bytes = await part.toBuffer();
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
          throw error;
        }
        if (part.file.truncated) throw tooLarge();
      }
      // A candidate outside the scope is as unknown as one that does not exist; a closed batch takes no photo.
      const actor = actorOf(request);
      const item = await validations.item(actor, request.params.itemId);
      const batch = await validations.batch(actor, item.generationId);
      if (!allowed(generationPolicy.validatePhotos(actor, batch))) throw new AppError('conflict', { fields: { generation_id: ['field.validation_batch_status'] } });
      if (!bytes || bytes.length === 0) throw fieldError('photo', 'field.file_required');
      const jpeg = await readUploadedPhoto(bytes);
      const result = await validations.uploadPhoto(actor, { generation_id: item.generationId, item: item.id }, jpeg);
      return { data: { message: request.t('messages:validation_photo_uploaded'), ...result } };
    },
  );

  app.post(
    '/validations/photos/reject',
    {
      config: { access: photos },
      schema: { tags, summary: 'Reject a candidate for its photo, with the reason', body: rejectItemBody, response: { 200: validationChangeResponse } },
    },
    async (request) => {
      const result = await validations.reject(actorOf(request), 'photo', request.body, request.body.reason);
      return { data: { message: request.t('messages:validation_photo_rejected'), ...result } };
    },
  );

  app.post(
    '/validations/data/validate',
    {
      config: { access: data },
      schema: { tags, summary: "Correct a candidate's data and validate it, or validate several unchanged", body: validateDataBody, response: { 200: validationChangeResponse } },
    },
    async (request) => {
      const result = await validations.validateData(actorOf(request), request.body);
      return { data: { message: request.t('messages:validation_data_validated', { count: result.changed.length }), ...result } };
    },
  );

  app.delete(
    '/validations/data/reject',
    {
      config: { access: data },
      schema: { tags, summary: 'Reject a candidate for its data, with the reason', body: rejectItemBody, response: { 200: validationChangeResponse } },
    },
    async (request) => {
      const result = await validations.reject(actorOf(request), 'data', request.body, request.body.reason);
      return { data: { message: request.t('messages:validation_data_rejected'), ...result } };
    },
  );

  for (const aspect of ['photo', 'data'] as const satisfies Aspect[]) {
    app.post(
      `/validations/${aspect === 'photo' ? 'photos' : 'data'}/reopen`,
      {
        config: { access: aspect === 'photo' ? photos : data },
        schema: {
          tags,
          summary: `Put a candidate's ${aspect} back to pending (and lift a rejection made for it)`,
          body: reopenItemBody,
          response: { 200: validationChangeResponse },
        },
      },
      async (request) => {
        const result = await validations.reopen(actorOf(request), aspect, request.body);
        return { data: { message: request.t('messages:validation_reopened'), ...result } };
      },
    );
  }

  app.get(
    '/generations/:id/items/rejected',
    {
      config: { access: { anyPermission: ['validation.photo', 'validation.data', 'generation.view.rejected'] } },
      schema: {
        tags,
        summary: "A batch's rejected candidates, with the reason, who and when",
        params: idParam,
        querystring: rejectedItemsQuery,
        response: { 200: validationItemsResponse },
      },
    },
    async (request) => {
      const { page, per_page: perPage = 20, ...filters } = request.query;
      return itemsPage(request, request.params.id, { page, perPage, ...filters, rejectedOnly: true }, generationPolicy.viewRejected);
    },
  );

  app.get(
    '/validations',
    {
      config: { access: anyValidation },
      schema: {
        tags,
        summary: "The user's scope's batches in validation (or ready for generation), with their counters",
        querystring: validationsQuery,
        response: { 200: validationsResponse },
      },
    },
    async (request) => {
      const { page, per_page: perPage = 20, search, status } = request.query;
      const { views, total } = await listValidationBatches(db, actorOf(request), { page, perPage, search, status });
      return { data: views, meta: meta(page, perPage, total) };
    },
  );
};
