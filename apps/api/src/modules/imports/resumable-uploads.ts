import { AsyncLocalStorage } from 'node:async_hooks';
import { readFile, stat } from 'node:fs/promises';
import { API_PREFIX, IMPORT_LIMITS, RESUMABLE_UPLOADS_PATH } from '@sceau/contracts';
import { FileConfigstore, FileStore } from '@tus/file-store';
import { Server, type Upload } from '@tus/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, fieldError } from '../../lib/errors.ts';
import { consumeAll, pgRateLimiter } from '../../lib/rate-limits.ts';
import type { Actor } from '../../policies/actor.ts';
import { importationPolicy } from '../../policies/importation-policy.ts';
import { authorize } from '../../policies/policy.ts';

/**
 * Resumable uploads of a list and its photos zip (issue 15 item 4, ADR 0150): the tus 1.0 protocol
 * (creation, core, termination, expiration) by the tus project's own server, `@tus/server` with its
 * file store, under `/api/uploads`. A browser on a network that drops sends a 200 MB zip in pieces
 * and resumes from the server's offset; the list check then names the uploads instead of carrying
 * the files (`POST /check-import-file` with `file_upload` / `photos_upload`).
 *
 * Bounded before a byte is stored: the kind (`list` or `photos`) and the full length are declared
 * at creation (no deferred length) and must fit that kind's limit; at most UPLOADS_PER_ACCOUNT
 * unfinished uploads per account and UPLOADS_IN_ALL in the store; 60 creations a minute per account.
 * An upload is its creator's only: anyone else is told it does not exist. Unfinished or unused
 * uploads expire (the store's expiration, swept hourly with the drafts).
 */

export const UPLOAD_KINDS = ['list', 'photos'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];
export const UPLOAD_LIMITS: Record<UploadKind, number> = { list: IMPORT_LIMITS.listMaxBytes, photos: IMPORT_LIMITS.photosMaxBytes };
/** Unfinished or unused uploads an account may hold at once (a list and a zip, twice over). */
export const UPLOADS_PER_ACCOUNT = 4;
/** Uploads the store holds at most, all accounts together. */
export const UPLOADS_IN_ALL = 500;
const CREATIONS_PER_MINUTE = 60;
/** The store's ids: 16 random bytes in hex (the server's default naming). */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

export interface UploadsOptions {
  directory: string;
  expiryHours: number;
}

/** A tus refusal: a status and a short plain-text body, in the caller's language. */
class TusRefusal {
  constructor(
    readonly status_code: number,
    readonly body: string,
  ) {}
}

/** The uploads' store and the tus server over it; the list check takes finished uploads from it. */
export class ResumableUploads {
  readonly store: FileStore;
  private readonly configs: FileConfigstore;
  private readonly caller = new AsyncLocalStorage<{ actor: Actor; t: (key: string, params?: Record<string, unknown>) => string }>();
  readonly server: Server;

  constructor(private readonly options: UploadsOptions) {
    this.configs = new FileConfigstore(options.directory);
    this.store = new FileStore({ directory: options.directory, configstore: this.configs, expirationPeriodInMilliseconds: options.expiryHours * 3600_000 });
    this.server = new Server({
      path: `${API_PREFIX}${RESUMABLE_UPLOADS_PATH}`,
      datastore: this.store,
      relativeLocation: true,
      maxSize: UPLOAD_LIMITS.photos,
      disableTerminationForFinishedUploads: false,
      onUploadCreate: async (_request, upload) => this.admit(upload),
    });
  }

  /** Who may create an upload, its kind and length, and the room left: before the store makes a file. */
  private async admit(upload: Upload): Promise<{ metadata: Record<string, string | null> }> {
    const context = this.caller.getStore();
    if (!context) throw new TusRefusal(500, 'no caller');
    const { actor, t } = context;
    const kind = upload.metadata?.kind;
    if (!kind || !(UPLOAD_KINDS as readonly string[]).includes(kind)) throw new TusRefusal(400, t('errors:field.upload_kind'));
    if (upload.sizeIsDeferred || upload.size === undefined) throw new TusRefusal(400, t('errors:field.upload_length_required'));
    const limit = UPLOAD_LIMITS[kind as UploadKind];
    if (upload.size === 0) throw new TusRefusal(400, t('errors:field.upload_empty'));
    if (upload.size > limit) {
      const key = kind === 'list' ? 'errors:field.import_file_too_large' : 'errors:field.import_photos_too_large';
      throw new TusRefusal(413, t(key, { size: limit / 1024 / 1024 }));
    }
    const held = await this.heldBy();
    if (held.total >= UPLOADS_IN_ALL) throw new TusRefusal(503, t('errors:field.upload_store_full'));
    if ((held.byOwner.get(String(actor.id)) ?? 0) >= UPLOADS_PER_ACCOUNT) throw new TusRefusal(429, t('errors:field.upload_too_many', { count: UPLOADS_PER_ACCOUNT }));
    const filename = (upload.metadata?.filename ?? '').slice(0, 255);
    // The owner is the server's to write: whatever the client sent under that name is replaced.
    return { metadata: { kind, filename, owner: String(actor.id) } };
  }

  /** The uploads in the store, by owner (the store is small: expired ones are swept). */
  private async heldBy(): Promise<{ total: number; byOwner: Map<string, number> }> {
    const ids = await this.configs.list().catch(() => [] as string[]);
    const byOwner = new Map<string, number>();
    for (const id of ids.slice(0, UPLOADS_IN_ALL + 1)) {
      const owner = (await this.configs.get(id))?.metadata?.owner;
      if (owner) byOwner.set(owner, (byOwner.get(owner) ?? 0) + 1);
    }
    return { total: ids.length, byOwner };
  }

  /** An upload as its owner sees it; missing, malformed or someone else's: null. */
  async find(actor: Actor, id: string): Promise<Upload | null> {
    if (!UPLOAD_ID.test(id)) return null;
    const upload = await this.store.getUpload(id).catch(() => null);
    if (!upload) return null;
    try {
      authorize(importationPolicy.useUpload(actor, { ownerId: Number(upload.metadata?.owner) }));
    } catch {
      return null;
    }
    return upload;
  }

  /**
   * A finished upload's bytes, for the list check, under `field`: refused (422, the field named)
   * when it is unknown to this account, of another kind, or not finished.
   */
  async take(actor: Actor, id: string, kind: UploadKind, field: string): Promise<Buffer> {
    const upload = await this.find(actor, id);
    if (!upload || upload.metadata?.kind !== kind) throw fieldError(field, 'field.upload_unknown');
    if (upload.size === undefined || upload.offset !== upload.size) throw fieldError(field, 'field.upload_unfinished');
    const file = upload.storage?.path;
    if (!file || (await stat(file)).size > UPLOAD_LIMITS[kind]) throw fieldError(field, 'field.upload_unknown');
    return readFile(file);
  }

  /** Removes uploads once their list check has stored what it needed. */
  async release(ids: readonly string[]): Promise<void> {
    for (const id of ids) if (UPLOAD_ID.test(id)) await this.store.remove(id).catch(() => undefined);
  }

  /**
   * Removes uploads created more than the expiry ago, finished or not (the hourly sweep): an upload
   * is a means to a list check, never kept for itself.
   */
  async sweep(now = Date.now()): Promise<number> {
    const ids = await this.configs.list().catch(() => [] as string[]);
    const expiry = this.options.expiryHours * 3600_000;
    let removed = 0;
    for (const id of ids) {
      const created = Date.parse((await this.configs.get(id))?.creation_date ?? '');
      if (Number.isNaN(created) || created + expiry >= now) continue;
      await this.store.remove(id).catch(() => undefined);
      removed++;
    }
    return removed;
  }

  /** Hands a request to the tus server, as `actor` (its hooks read who is asking). */
  async handle(request: FastifyRequest, reply: FastifyReply, actor: Actor): Promise<void> {
    reply.hijack();
    const t = (key: string, params?: Record<string, unknown>) => request.t(key as never, params as never) as unknown as string;
    await this.caller.run({ actor, t }, () => this.server.handle(request.raw, reply.raw));
  }
}

/**
 * The tus routes under /api/uploads: creation (POST), offset (HEAD), data (PATCH), termination
 * (DELETE), and OPTIONS for the protocol's discovery. Who may: the list check's permission; an
 * existing upload, its owner only (importation policy `useUpload`).
 */
export async function registerUploadRoutes(app: FastifyInstance, uploads: ResumableUploads, pool: unknown): Promise<void> {
  const access = { anyPermission: ['generation.create'], section: 'generation' } as const;
  const limiter = pgRateLimiter(pool, { keyPrefix: 'uploads', points: CREATIONS_PER_MINUTE, durationSeconds: 60 });
  // tus data is a stream the server reads itself: Fastify leaves it untouched.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
  const tags = ['imports'];

  app.post(
    RESUMABLE_UPLOADS_PATH,
    { config: { access }, schema: { tags, summary: 'Create a resumable upload (tus 1.0 creation): Upload-Length and Upload-Metadata kind (list or photos), filename' } },
    async (request, reply) => {
      const actor = request.user!;
      await consumeAll([[limiter, String(actor.id)]]);
      await uploads.handle(request, reply, actor);
    },
  );

  const existing = async (request: FastifyRequest, reply: FastifyReply) => {
    const actor = request.user!;
    const { id } = request.params as { id: string };
    if (!(await uploads.find(actor, id))) throw new AppError('not_found');
    await uploads.handle(request, reply, actor);
  };
  // The id is checked by `find` (the store's own naming), no schema: the app's validators are zod's.
  app.route({
    method: 'HEAD',
    url: `${RESUMABLE_UPLOADS_PATH}/:id`,
    config: { access },
    exposeHeadRoute: false,
    schema: { tags, summary: "An upload's offset (tus HEAD): where to resume" },
    handler: existing,
  });
  app.patch(
    `${RESUMABLE_UPLOADS_PATH}/:id`,
    { config: { access }, schema: { tags, summary: 'Append to an upload from its offset (tus PATCH, application/offset+octet-stream)' } },
    existing,
  );
  app.delete(`${RESUMABLE_UPLOADS_PATH}/:id`, { config: { access }, schema: { tags, summary: 'Abandon an upload (tus termination)' } }, existing);
}
