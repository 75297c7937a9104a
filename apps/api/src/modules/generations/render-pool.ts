// Renders and signs diploma PDFs on every core: a pool of worker threads (render-worker.ts), each
// holding one DiplomaRenderer per template set-up and the ministry's PDF signer. See ADR 0050.
import type { DiplomaFields, DiplomaTemplateInput, QrContents, SignatureImages } from '@sceau/pdf';
import type { Config } from '../../config.ts';
import type { LongTermSetup } from '../timestamping/timestamping-service.ts';
import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** What a worker needs to render and sign for one template: sent once per worker, then named by `key`. */
export interface RenderSetup {
  /** Changes whenever the template, a signature image or the signing key changes. */
  key: string;
  template: DiplomaTemplateInput;
  signatureImages: SignatureImages;
  /**
   * The ministry's PDF signer: its private key (PKCS#8 PEM), used in the worker; or, for a key the
   * process cannot export (a PKCS#11 token, ADR 0136), `sign`, which the worker calls through this
   * thread (its signed attributes in, the DER signature out). Certificate chain DER, leaf first.
   */
  signer: { privateKeyPem: string; certificateChainDer: Uint8Array[] } | { sign(data: Uint8Array): Promise<Uint8Array>; certificateChainDer: Uint8Array[] };
  /**
   * PAdES B-LTA (ADR 0135): the TSA (the signature's time-stamp and the document time-stamp) and
   * the DSS's validation data (TimestampingService.setup()).
   */
  longTerm: LongTermSetup;
}

/**
 * One diploma. `photo` and `credentialJson` are handed over: when they own their whole
 * ArrayBuffer it is transferred to the worker (and detached here), otherwise copied.
 */
export interface RenderJob {
  fields: DiplomaFields;
  photo: Uint8Array;
  qr: QrContents;
  /** The credential document as UTF-8 JSON, attached to the PDF as it is. */
  credentialJson: Uint8Array;
}

/**
 * One diploma whose printed fields the worker reads from its credential (`printedFields`); the
 * credential is attached re-serialised compactly, so the caller may pass the database's text of it
 * as it comes (`credential::text`), with no JSON work on the main thread.
 */
export type CredentialRenderJob = Omit<RenderJob, 'fields'>;

/**
 * The services' file store, by its configuration: a render thread builds its own (createFileStorage)
 * to read photos and write PDFs itself, so that neither crosses the main thread.
 */
export type WorkerFiles = Pick<Config, 'filesDir' | 'fileStorage'>;

/** A diploma rendered from its credential by a thread that reads its photo from the store (`photoKey`). */
export interface StoredRenderJob extends Omit<CredentialRenderJob, 'photo'> {
  photoKey: string;
}

/**
 * A signed PDF kept in the render thread that made it, until the caller stores it under a key (the
 * thread writes it to the file store) or releases it. Lets the caller write only the files whose
 * database rows it has locked, without the bytes ever reaching the main thread.
 */
export interface HeldPdf {
  sha256: string;
  bytes: number;
  /** When the TSA certificate of the PDF's last time-stamp expires (ISO 8601). */
  timestampExpiresAt: string;
  /** Writes the PDF to the file store under `key` (whole or not at all), then forgets it. */
  store(key: string): Promise<void>;
  /** Forgets the PDF without writing it (idempotent; nothing after `store`). */
  release(): void;
}

export interface RenderedPdf {
  /** The signed PDF; its ArrayBuffer came from the worker by transfer and is this view's alone. */
  pdf: Uint8Array;
  sha256: string;
  /** When the TSA certificate of the PDF's last time-stamp expires (ISO 8601). */
  timestampExpiresAt: string;
}

export interface RenderPoolOptions {
  /** Worker threads; default os.availableParallelism(). */
  size?: number;
  /** Jobs sent ahead to each worker, so that it never waits for the main thread. Default 4. */
  inFlightPerWorker?: number;
  /** Template set-ups a worker keeps (least recently used dropped). Default 4. */
  setupsPerWorker?: number;
}

/** Counters for benchmarks and logs; callers may add their own stage times. */
export interface RenderPoolStats {
  documents: number;
  failed: number;
  crashes: number;
  /** Summed over workers: time spent rendering and signing. */
  renderMs: number;
  signMs: number;
  /** Filled by renderPending: photo reads, PDF writes and database updates (wall time per chunk, summed). */
  photoReadMs: number;
  storageMs: number;
  dbMs: number;
}

/** A set-up as the worker receives it: a signer that signs in the pool's thread is `remote`. */
export type PostedSetup = Omit<RenderSetup, 'signer'> & {
  signer: { privateKeyPem: string; certificateChainDer: Uint8Array[] } | { remote: true; certificateChainDer: Uint8Array[] };
};

// Messages between the pool and its workers.
export type WorkerRequest =
  | { type: 'setup'; setup: PostedSetup }
  | { type: 'signature'; signId: number; signature: Uint8Array | null; error?: string }
  | { type: 'drop'; key: string }
  | {
      type: 'render';
      id: number;
      key: string;
      fields: DiplomaFields | undefined;
      /** The photo's bytes, or null when the worker reads it from `files` under `photoKey`. */
      photo: Uint8Array | null;
      photoKey?: string;
      files?: WorkerFiles;
      /** Keep the PDF in the worker (answer 'held') until 'store' or 'release'. */
      hold?: boolean;
      qr: QrContents;
      credentialJson: Uint8Array;
    }
  | { type: 'store'; id: number; key: string }
  | { type: 'release'; id: number }
  | { type: 'crash' };
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'done'; id: number; pdf: Uint8Array; sha256: string; timestampExpiresAt: string; renderMs: number; signMs: number }
  | { type: 'held'; id: number; bytes: number; sha256: string; timestampExpiresAt: string; renderMs: number; signMs: number }
  | { type: 'stored'; id: number }
  | { type: 'sign'; signId: number; key: string; data: Uint8Array }
  | { type: 'failed'; id: number; message: string; stack: string; code?: RenderErrorCode };

/** Why a render failed, when the caller may act on it: the photo is not in the file store. */
export type RenderErrorCode = 'photo_missing';

type AnyJob = RenderJob | CredentialRenderJob | (StoredRenderJob & { files: WorkerFiles });

interface Queued {
  setup: RenderSetup;
  job: AnyJob;
  resolve(result: RenderedPdf | HeldPdf): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  inFlight: Map<number, Queued>;
  /** Set-up keys the worker holds, least recently used first (mirrors the worker's own map). */
  loaded: string[];
  lastError: Error | null;
  /** Resolves when the worker has loaded its code (or is gone). */
  ready: Promise<void>;
  /** PDFs the worker holds for a later 'store' or 'release', and the stores under way. */
  held: Set<number>;
  storing: Map<number, { resolve(): void; reject(error: Error): void }>;
  alive: boolean;
}

/** A render job that failed inside a worker (its message and stack are the worker's). */
export class RenderError extends Error {
  override name = 'RenderError';
  constructor(
    message: string,
    readonly code?: RenderErrorCode,
  ) {
    super(message);
  }
}

const WORKER_URL = new URL('./render-worker.ts', import.meta.url);

/**
 * Workers run the TypeScript sources like the API does (`node --import tsx`), whether the parent
 * runs under tsx (`npm run serve`) or vitest. The loader is found from this file, not from the cwd.
 */
function workerExecArgv(): string[] {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return ['--import', tsx];
}

/** Bytes whose ArrayBuffer can be transferred: theirs alone, else a copy (Buffer#slice would be a view). */
function owned(bytes: Uint8Array): Uint8Array {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && !(bytes.buffer instanceof SharedArrayBuffer);
  return whole ? bytes : Uint8Array.prototype.slice.call(bytes);
}

export class RenderPool {
  readonly size: number;
  readonly stats: RenderPoolStats = { documents: 0, failed: 0, crashes: 0, renderMs: 0, signMs: 0, photoReadMs: 0, storageMs: 0, dbMs: 0 };
  private readonly inFlightPerWorker: number;
  private readonly setupsPerWorker: number;
  private readonly slots: Slot[] = [];
  private queue: Queued[] = [];
  private queueHead = 0;
  private nextId = 1;
  private closed = false;
  /** The signers of set-ups whose key signs in this thread (PKCS#11), by set-up key. */
  private readonly remoteSigners = new Map<string, (data: Uint8Array) => Promise<Uint8Array>>();

  constructor(options: RenderPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? os.availableParallelism()));
    this.inFlightPerWorker = Math.max(1, options.inFlightPerWorker ?? 4);
    this.setupsPerWorker = Math.max(1, options.setupsPerWorker ?? 4);
  }

  /** Renders and signs one diploma on a worker. Rejects with the worker's error, or if the worker dies. */
  render(setup: RenderSetup, job: RenderJob): Promise<RenderedPdf> {
    return this.enqueue(setup, job) as Promise<RenderedPdf>;
  }

  /** Renders and signs one diploma whose printed fields come from its credential (see CredentialRenderJob). */
  renderFromCredential(setup: RenderSetup, job: CredentialRenderJob): Promise<RenderedPdf> {
    return this.enqueue(setup, job) as Promise<RenderedPdf>;
  }

  /**
   * Renders and signs one diploma in a thread that reads the photo from the file store itself and
   * keeps the signed PDF (see HeldPdf). A photo missing from the store rejects with a RenderError
   * of code 'photo_missing'.
   */
  renderHeld(setup: RenderSetup, files: WorkerFiles, job: StoredRenderJob): Promise<HeldPdf> {
    return this.enqueue(setup, { ...job, files }) as Promise<HeldPdf>;
  }

  private enqueue(setup: RenderSetup, job: AnyJob): Promise<RenderedPdf | HeldPdf> {
    if (this.closed) return Promise.reject(new Error('render pool closed'));
    return new Promise<RenderedPdf | HeldPdf>((resolve, reject) => {
      this.queue.push({ setup, job, resolve, reject });
      this.pump();
    });
  }

  /**
   * Starts every worker now and resolves once each has loaded its code (about 1-2 s under tsx),
   * so that the first batch does not wait for it. Optional: workers otherwise start with the first jobs.
   */
  async start(): Promise<void> {
    if (this.closed) throw new Error('render pool closed');
    while (this.slots.length < this.size) this.spawn();
    await Promise.all(this.slots.map((slot) => slot.ready));
  }

  /** Jobs waiting for a worker plus jobs being rendered. */
  get pending(): number {
    return this.queue.length - this.queueHead + this.slots.reduce((n, s) => n + s.inFlight.size, 0);
  }

  /** Rejects waiting jobs and stops every worker. Idempotent; a closed pool renders nothing more. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const waiting = this.queue.slice(this.queueHead);
    this.queue = [];
    this.queueHead = 0;
    for (const q of waiting) q.reject(new Error('render pool closed'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  /** Test hook: makes one worker exit abruptly, as a crash would. */
  crashOneWorkerForTest(): void {
    this.slots.find((s) => s.inFlight.size > 0)?.worker.postMessage({ type: 'crash' } satisfies WorkerRequest);
  }

  private pump(): void {
    while (this.queueHead < this.queue.length) {
      const slot = this.freeSlot();
      if (!slot) break;
      this.send(slot, this.queue[this.queueHead++]!);
    }
    if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
  }

  /** The least busy worker with room, starting one more while the pool is below its size. */
  private freeSlot(): Slot | null {
    let best: Slot | null = null;
    for (const slot of this.slots) if (slot.inFlight.size < this.inFlightPerWorker && (!best || slot.inFlight.size < best.inFlight.size)) best = slot;
    if ((!best || best.inFlight.size > 0) && this.slots.length < this.size) return this.spawn();
    return best;
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_URL, { execArgv: workerExecArgv(), name: 'sceau-render' });
    let ready!: () => void;
    const slot: Slot = {
      worker,
      inFlight: new Map(),
      loaded: [],
      lastError: null,
      ready: new Promise<void>((resolve) => (ready = resolve)),
      held: new Set(),
      storing: new Map(),
      alive: true,
    };
    this.slots.push(slot);
    worker.on('message', (reply: WorkerReply) => {
      if (reply.type !== 'ready') return this.onReply(slot, reply);
      // Loaded and idle: an idle pool never keeps the process alive.
      if (slot.inFlight.size === 0) worker.unref();
      ready();
    });
    worker.on('error', (error) => {
      slot.lastError = error;
    });
    worker.on('exit', (code) => {
      ready();
      this.onExit(slot, code);
    });
    return slot;
  }

  private send(slot: Slot, queued: Queued): void {
    const { setup, job } = queued;
    const at = slot.loaded.indexOf(setup.key);
    if (at >= 0) {
      slot.loaded.splice(at, 1);
    } else {
      const { signer } = setup;
      let posted = setup as PostedSetup;
      if ('sign' in signer) {
        this.remoteSigners.set(setup.key, signer.sign);
        posted = { ...setup, signer: { remote: true, certificateChainDer: signer.certificateChainDer } };
      }
      slot.worker.postMessage({ type: 'setup', setup: posted } satisfies WorkerRequest);
      if (slot.loaded.length >= this.setupsPerWorker) slot.worker.postMessage({ type: 'drop', key: slot.loaded.shift()! } satisfies WorkerRequest);
    }
    slot.loaded.push(setup.key);
    const id = this.nextId++;
    slot.inFlight.set(id, queued);
    slot.worker.ref();
    const stored = 'photoKey' in job ? { photoKey: job.photoKey, files: job.files, hold: true } : {};
    const post = (photo: Uint8Array | null, credentialJson: Uint8Array) =>
      slot.worker.postMessage(
        { type: 'render', id, key: setup.key, fields: 'fields' in job ? job.fields : undefined, photo, ...stored, qr: job.qr, credentialJson } satisfies WorkerRequest,
        photo ? [photo.buffer as ArrayBuffer, credentialJson.buffer as ArrayBuffer] : [credentialJson.buffer as ArrayBuffer],
      );
    const photo = 'photo' in job ? job.photo : null;
    try {
      post(photo && owned(photo), owned(job.credentialJson));
    } catch (error) {
      // Memory a native addon allocated (sharp's output, say) cannot be transferred: sent as copies.
      if ((error as Error).name !== 'DataCloneError') throw error;
      post(photo && Uint8Array.prototype.slice.call(photo), Uint8Array.prototype.slice.call(job.credentialJson));
    }
  }

  private onReply(slot: Slot, reply: Exclude<WorkerReply, { type: 'ready' }>): void {
    if (reply.type === 'sign') {
      this.signFor(slot, reply);
      return;
    }
    const store = slot.storing.get(reply.id);
    if (store && (reply.type === 'stored' || reply.type === 'failed')) {
      slot.storing.delete(reply.id);
      this.unrefIfIdle(slot);
      if (reply.type === 'stored') {
        store.resolve();
        return;
      }
      const error = new RenderError(reply.message);
      error.stack = reply.stack || error.stack;
      store.reject(error);
      return;
    }
    const queued = slot.inFlight.get(reply.id);
    if (!queued) return;
    slot.inFlight.delete(reply.id);
    if (reply.type === 'held') slot.held.add(reply.id);
    this.unrefIfIdle(slot);
    if (reply.type === 'done' || reply.type === 'held') {
      this.stats.documents++;
      this.stats.renderMs += reply.renderMs;
      this.stats.signMs += reply.signMs;
      queued.resolve(
        reply.type === 'done'
          ? { pdf: reply.pdf, sha256: reply.sha256, timestampExpiresAt: reply.timestampExpiresAt }
          : this.heldPdf(slot, reply.id, reply.sha256, reply.bytes, reply.timestampExpiresAt),
      );
    } else if (reply.type === 'failed') {
      this.stats.failed++;
      const error = new RenderError(reply.message, reply.code);
      error.stack = reply.stack || error.stack;
      queued.reject(error);
    }
    this.pump();
  }

  /** A worker's request to sign with a key that stays in this thread (a PKCS#11 token, ADR 0136). */
  private signFor(slot: Slot, request: Extract<WorkerReply, { type: 'sign' }>): void {
    const answer = (signature: Uint8Array | null, error?: string) => {
      if (slot.alive) slot.worker.postMessage({ type: 'signature', signId: request.signId, signature, ...(error ? { error } : {}) } satisfies WorkerRequest);
    };
    const sign = this.remoteSigners.get(request.key);
    if (!sign) {
      answer(null, `render pool: no signer for set-up ${request.key}`);
      return;
    }
    sign(request.data).then(
      (signature) => answer(signature),
      (error: unknown) => answer(null, error instanceof Error ? error.message : String(error)),
    );
  }

  /** An idle worker never keeps the process alive: a forgotten close() cannot hang a shutdown. */
  private unrefIfIdle(slot: Slot): void {
    if (slot.inFlight.size === 0 && slot.storing.size === 0) slot.worker.unref();
  }

  private heldPdf(slot: Slot, id: number, sha256: string, bytes: number, timestampExpiresAt: string): HeldPdf {
    return {
      sha256,
      bytes,
      timestampExpiresAt,
      store: (key) => {
        if (!slot.held.delete(id))
          return Promise.reject(new RenderError(slot.alive ? 'this PDF was already stored or released' : 'render worker stopped: the PDF it held is lost'));
        return new Promise<void>((resolve, reject) => {
          slot.storing.set(id, { resolve, reject });
          slot.worker.ref();
          slot.worker.postMessage({ type: 'store', id, key } satisfies WorkerRequest);
        });
      },
      release: () => {
        if (slot.held.delete(id) && slot.alive) slot.worker.postMessage({ type: 'release', id } satisfies WorkerRequest);
      },
    };
  }

  /** A worker gone: its jobs fail (the caller's job is retried), and the next job starts a new worker. */
  private onExit(slot: Slot, code: number): void {
    slot.alive = false;
    this.slots.splice(this.slots.indexOf(slot), 1);
    const cause = this.closed
      ? new Error('render pool closed')
      : new Error(`render worker stopped (exit code ${code})${slot.lastError ? `: ${slot.lastError.message}` : ''}`, { cause: slot.lastError ?? undefined });
    if (!this.closed) this.stats.crashes++;
    for (const queued of slot.inFlight.values()) {
      this.stats.failed++;
      queued.reject(cause);
    }
    slot.inFlight.clear();
    // What it held is gone: storing it fails (the caller's job is retried and renders it again).
    for (const store of slot.storing.values()) store.reject(cause);
    slot.storing.clear();
    slot.held.clear();
    if (!this.closed) this.pump();
  }
}

let shared: RenderPool | null = null;

/**
 * The process's render pool, started on first use (workers start lazily, with the first jobs).
 * Options count only when the pool is created, so a server may call this at start with its
 * configured size.
 */
export function sharedRenderPool(options?: RenderPoolOptions): RenderPool {
  shared ??= new RenderPool(options);
  return shared;
}

/** Stops the process's render pool (server shutdown, end of a test file). Safe to call when none was started. */
export async function closeSharedRenderPool(): Promise<void> {
  const pool = shared;
  shared = null;
  await pool?.close();
}
