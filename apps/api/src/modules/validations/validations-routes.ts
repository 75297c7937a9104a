import multipart from '@fastify/multipart';
import { endpoints, PHOTO_EDIT_LIMITS, PHOTO_UPLOAD_MAX_BYTES } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { AppError } from '../../lib/errors.ts';
import { actorOf } from '../../policies/actor.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';
import { ValidationsService, type Aspect } from './validations-service.ts';

const PHOTO_URL = /^(?:https?:\/\/[^/]+)?\/api\/validations\/photos\/(\d+)\/items\/(\d+)\/photo(?:\?.*)?$/;

const meta = (page: number, perPage: number, total: number) => ({ current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total });

/**
 * Photo and data validation (spec section 7 "Validation"; /validate-picture, /validate-data,
 * /student-reject, /validated). ADR 0070.
 */
export const validationsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, services }) => {
  const validations = new ValidationsService(db, services.storage, app.log);
  await app.register(multipart, { limits: { fileSize: PHOTO_UPLOAD_MAX_BYTES, files: 1, fields: 5, fieldSize: 256 } });

  for (const aspect of ['photo', 'data'] as const) {
    serve(app, aspect === 'photo' ? endpoints.validations.photoItems : endpoints.validations.dataItems, async (request) => {
      const { page, per_page: perPage = 20, ...filters } = request.query;
      const { items, total, generation } = await validations.itemsPage(actorOf(request), request.params.generationId, { page, perPage, ...filters, on: aspect });
      return { data: items, meta: meta(page, perPage, total), generation };
    });
  }

  serve(app, endpoints.validations.filters, async (request) => ({ data: await validations.filters(actorOf(request), request.params.generationId) }));

  serve(app, endpoints.validations.photo, async (request, reply) => {
    const photo = await validations.photoOf(actorOf(request), request.params.itemId, request.params.generationId);
    // The URL changes with the photo (`v`), so a private cache may keep it.
    return reply.type('image/jpeg').header('cache-control', 'private, max-age=3600').send(photo);
  });

  serve(app, endpoints.validations.originalPhoto, async (request, reply) => {
    const original = await validations.originalOf(actorOf(request), request.params.itemId, request.params.generationId);
    return reply.type('image/jpeg').header('cache-control', 'private, no-cache').send(original);
  });

  serve(app, endpoints.validations.imageToBase64, async (request) => {
    const { image } = request.query;
    const fromUrl = PHOTO_URL.exec(image);
    const itemId = fromUrl ? Number(fromUrl[2]) : /^\d{1,15}$/.test(image) ? Number(image) : null;
    if (!itemId) throw new AppError('validation_failed', { fields: { image: ['field.validation_image_reference'] } });
    const photo = await validations.photoOf(actorOf(request), itemId, fromUrl ? Number(fromUrl[1]) : undefined);
    return { data: { base64: `data:image/jpeg;base64,${photo.toString('base64')}` } };
  });

  serve(
    app,
    endpoints.validations.validatePhotos,
    async (request) => {
      const body = request.body;
      const actor = actorOf(request);
      if (body.reject) {
        const result = await validations.reject(actor, 'photo', { ...body, item: body.item! }, body.reason!);
        return { data: { message: request.t('messages:validation_photo_rejected'), ...result } };
      }
      if (body.edits || body.image) {
        const target = { generation_id: body.generation_id, item: body.item! };
        const result = await validations.editPhoto(actor, target, body.edits ? { edits: body.edits } : { image: body.image! });
        return { data: { message: request.t('messages:validation_photo_edited'), ...result } };
      }
      const result = await validations.validatePhotos(actor, body);
      return { data: { message: request.t('messages:validation_photos_validated', { count: result.changed.length }), ...result } };
    },
    // An edited photo may come whole, as a data URL.
    { bodyLimit: Math.ceil((PHOTO_EDIT_LIMITS.maxUploadBytes * 4) / 3) + 64 * 1024 },
  );

  serve(app, endpoints.validations.uploadPhoto, async (request) => {
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
    const result = await validations.uploadTo(actorOf(request), request.params.itemId, bytes);
    return { data: { message: request.t('messages:validation_photo_uploaded'), ...result } };
  });

  serve(app, endpoints.validations.rejectPhoto, async (request) => {
    const result = await validations.reject(actorOf(request), 'photo', request.body, request.body.reason);
    return { data: { message: request.t('messages:validation_photo_rejected'), ...result } };
  });

  serve(app, endpoints.validations.validateData, async (request) => {
    const result = await validations.validateData(actorOf(request), request.body);
    return { data: { message: request.t('messages:validation_data_validated', { count: result.changed.length }), ...result } };
  });

  serve(app, endpoints.validations.rejectData, async (request) => {
    const result = await validations.reject(actorOf(request), 'data', request.body, request.body.reason);
    return { data: { message: request.t('messages:validation_data_rejected'), ...result } };
  });

  for (const aspect of ['photo', 'data'] as const satisfies Aspect[]) {
    serve(app, aspect === 'photo' ? endpoints.validations.reopenPhoto : endpoints.validations.reopenData, async (request) => {
      const result = await validations.reopen(actorOf(request), aspect, request.body);
      return { data: { message: request.t('messages:validation_reopened'), ...result } };
    });
  }

  for (const aspect of ['photo', 'data'] as const satisfies Aspect[]) {
    const photo = aspect === 'photo';
    serve(app, photo ? endpoints.validations.photosPending : endpoints.validations.dataPending, async (request) => ({
      data: await validations.pendingCount(actorOf(request), aspect, request.params.generationId, request.query),
    }));
    serve(app, photo ? endpoints.validations.validateAllPhotos : endpoints.validations.validateAllData, async (request) => {
      const result = await validations.validateAll(actorOf(request), aspect, request.params.generationId, request.body);
      const message = request.t(photo ? 'messages:validation_photos_validated' : 'messages:validation_data_validated', { count: result.count });
      return { data: { message, ...result } };
    });
  }

  serve(app, endpoints.validations.rejectedItems, async (request) => {
    const { page, per_page: perPage = 20, ...filters } = request.query;
    const { items, total, generation } = await validations.itemsPage(
      actorOf(request),
      request.params.id,
      { page, perPage, ...filters, rejectedOnly: true },
      generationPolicy.viewRejected,
    );
    return { data: items, meta: meta(page, perPage, total), generation };
  });

  serve(app, endpoints.validations.batches, async (request) => {
    const { page, per_page: perPage = 20, search, status } = request.query;
    const { views, total } = await validations.batches(actorOf(request), { page, perPage, search, status });
    return { data: views, meta: meta(page, perPage, total) };
  });
};
