import multipart from '@fastify/multipart';
import { endpoints, SIGNATURE_MAX_BYTES, signatureFields } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { parseOrThrow } from '../../lib/validation.ts';
import { actorOf } from '../../policies/actor.ts';
import { allowed, authorize } from '../../policies/policy.ts';
import { signaturePolicy } from '../../policies/signature-policy.ts';

export const signaturesRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { services }) => {
  const { signatures } = services;
  await app.register(multipart, { limits: { fileSize: SIGNATURE_MAX_BYTES, files: 1, fields: 10, fieldSize: 2048 } });

  serve(app, endpoints.signatures.state, async (request) => {
    const actor = actorOf(request);
    return {
      data: await signatures.state(),
      abilities: { add: allowed(signaturePolicy.add(actor)), replace: allowed(signaturePolicy.replace(actor)), remove: allowed(signaturePolicy.remove(actor)) },
    };
  });

  serve(app, endpoints.signatures.image, async (request, reply) =>
    reply
      .type('image/png')
      .header('cache-control', 'private, max-age=3600')
      .send(await signatures.image(request.params.kind)),
  );

  serve(app, endpoints.signatures.save, async (request) => {
    if (!request.isMultipart()) throw new AppError('unsupported_media_type');
    // Refused before the image is read when the actor may neither add nor replace any signature.
    const actor = actorOf(request);
    if (!allowed(signaturePolicy.add(actor)) && !allowed(signaturePolicy.replace(actor))) authorize(signaturePolicy.replace(actor));
    const fields: Record<string, string> = {};
    let image: Buffer | null = null;
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'image') {
          part.file.resume();
          continue;
        }
        const tooLarge = fieldError('image', { key: 'field.image_too_large', params: { size: SIGNATURE_MAX_BYTES / 1024 / 1024 } });
        try {
          image = await part.toBuffer();
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge;
          throw error;
        }
        if (part.file.truncated) throw tooLarge;
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
    const input = parseOrThrow(signatureFields, fields);
    if (!image || image.length === 0) throw fieldError('image', 'field.file_required');
    await signatures.save(actor, { ...input, image });
    return { data: { message: request.t('messages:signature_saved') } };
  });

  serve(app, endpoints.signatures.remove, async (request) => {
    await signatures.remove(actorOf(request), request.params.kind);
    return { data: { message: request.t('messages:signature_deleted') } };
  });
};
