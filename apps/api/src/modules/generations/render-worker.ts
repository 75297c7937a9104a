// A render pool worker (see render-pool.ts): holds one DiplomaRenderer per template set-up and the
// ministry's PDF signer (node:crypto), renders and PAdES-signs the diplomas it is sent, and sends
// the signed bytes back by transfer (no copy).
import {
  createDiplomaRenderer,
  createKeySigner,
  extendToLongTerm,
  latestTimestamp,
  signPdf,
  type DiplomaRenderer,
  type Signer,
  type TimeStamper,
  type ValidationData,
} from '@sceau/pdf';
import { X509Certificate } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { printedFields } from './printed-fields.ts';
import { assertStorageKey, deleteEach, type FailedDeletion, type FileStorage } from '../../lib/storage.ts';
import type { PostedSetup, WorkerFiles, WorkerReply, WorkerRequest } from './render-pool.ts';
import { timestamperFor } from '../timestamping/timestamping-service.ts';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

if (!parentPort) throw new Error('render-worker.ts runs as a worker thread of the render pool');
const port = parentPort;

interface Loaded {
  renderer: Promise<DiplomaRenderer>;
  signer: Signer;
  /** PAdES B-LTA (ADR 0135): the TSA, the DSS's data, and the local TSA certificate's end (null: read from each token). */
  timestamper: TimeStamper;
  validation: ValidationData;
  tsaNotAfter: string | null;
}
const loaded = new Map<string, Loaded>();

/** Signatures asked of the pool's thread (a key this thread cannot hold: PKCS#11), by request id. */
const signatures = new Map<number, { resolve(signature: Uint8Array): void; reject(error: Error): void }>();
let nextSignId = 1;

/** A Signer whose key signs in the pool's thread: the signed attributes go there, the signature comes back. */
function signerFor(setup: PostedSetup): Signer {
  const { signer } = setup;
  return 'remote' in signer
    ? remoteSigner(setup.key, signer.certificateChainDer)
    : createKeySigner({ privateKey: signer.privateKeyPem, certificateChainDer: signer.certificateChainDer });
}

function remoteSigner(key: string, certificateChainDer: Uint8Array[]): Signer {
  return {
    certificateChainDer,
    sign: (data) =>
      new Promise<Uint8Array>((resolve, reject) => {
        const signId = nextSignId++;
        signatures.set(signId, { resolve, reject });
        reply({ type: 'sign', signId, key, data });
      }),
  };
}

function reply(message: WorkerReply, transfer: ArrayBuffer[] = []) {
  port.postMessage(message, transfer);
}

port.on('message', (message: WorkerRequest) => {
  switch (message.type) {
    case 'setup': {
      const { setup } = message;
      const renderer = createDiplomaRenderer({ template: setup.template, signatureImages: setup.signatureImages });
      // A failed set-up is reported with the first job that needs it.
      renderer.catch(() => {});
      const { tsa, validation } = setup.longTerm;
      loaded.set(setup.key, {
        renderer,
        signer: signerFor(setup),
        timestamper: timestamperFor(tsa),
        validation,
        tsaNotAfter: tsa.kind === 'local' ? new Date(new X509Certificate(tsa.certificateChainDer[0]!).validTo).toISOString() : null,
      });
      return;
    }
    case 'signature': {
      const waiting = signatures.get(message.signId);
      signatures.delete(message.signId);
      if (message.signature) waiting?.resolve(message.signature);
      else waiting?.reject(new Error(message.error ?? 'the signer failed'));
      return;
    }
    case 'drop':
      loaded.delete(message.key);
      return;
    case 'render':
      void render(message);
      return;
    case 'store':
      void store(message);
      return;
    case 'release':
      held.delete(message.id);
      heldFiles.delete(message.id);
      return;
    case 'crash':
      // Tests: a worker that dies in the middle of its work.
      process.exit(7);
  }
});

/** PDFs kept for a later 'store' or 'release' (RenderPool.renderHeld), with the store they go to. */
const held = new Map<number, Uint8Array>();
const heldFiles = new Map<number, WorkerFiles>();
/** File stores by their configuration, built on first use (the services' own store, rebuilt here). */
const stores = new Map<string, Promise<FileStorage>>();

function storeFor(files: WorkerFiles): Promise<FileStorage> {
  const key = JSON.stringify(files);
  let store = stores.get(key);
  if (!store) {
    // The S3 client (and its SDK) is loaded only when configured.
    store = files.fileStorage.s3
      ? import('../../lib/create-file-storage.ts').then(({ createFileStorage }) => createFileStorage(files))
      : Promise.resolve(new ThreadLocalFiles(files.filesDir));
    stores.set(key, store);
  }
  return store;
}

/**
 * The folder store as LocalFileStorage lays it out (`<root>/<key>`, written to a temporary file
 * renamed into place: whole or not at all), with synchronous calls: this thread has nothing else
 * to do meanwhile, and each asynchronous call would cost a round trip through libuv's thread pool
 * (five per file written), which on this machine cost more CPU than the writes themselves.
 */
class ThreadLocalFiles implements FileStorage {
  private readonly folders = new Set<string>();
  constructor(private readonly root: string) {}

  async put(key: string, data: Buffer): Promise<void> {
    assertStorageKey(key);
    const file = path.join(this.root, key);
    const folder = path.dirname(file);
    if (!this.folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      if (this.folders.size > 1000) this.folders.clear();
      this.folders.add(folder);
    }
    const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      writeFileSync(tmp, data);
    } catch (error) {
      // The folder was removed since (a cancelled batch's files, say): made again.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(folder, { recursive: true });
      writeFileSync(tmp, data);
    }
    renameSync(tmp, file);
  }

  async get(key: string): Promise<Buffer | null> {
    assertStorageKey(key);
    try {
      return readFileSync(path.join(this.root, key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertStorageKey(key);
    rmSync(path.join(this.root, key), { force: true });
  }
  deleteMany(keys: readonly string[]): Promise<FailedDeletion[]> {
    return deleteEach((key) => this.delete(key), keys);
  }
}

class PhotoMissing extends Error {}

async function store(message: Extract<WorkerRequest, { type: 'store' }>) {
  const pdf = held.get(message.id);
  try {
    if (!pdf) throw new Error(`render worker: no PDF held for job ${message.id}`);
    await (await storeFor(heldFiles.get(message.id)!)).put(message.key, Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
    reply({ type: 'stored', id: message.id });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    reply({ type: 'failed', id: message.id, message: e.message, stack: e.stack ?? '' });
  } finally {
    held.delete(message.id);
    heldFiles.delete(message.id);
  }
}

async function render(job: Extract<WorkerRequest, { type: 'render' }>) {
  try {
    const set = loaded.get(job.key);
    if (!set) throw new Error(`render worker: no set-up ${job.key}`);
    const renderer = await set.renderer;
    let photo = job.photo;
    if (!photo) {
      const bytes = await (await storeFor(job.files!)).get(job.photoKey!);
      if (!bytes) throw new PhotoMissing(`photo ${job.photoKey} is not in the file store`);
      photo = bytes;
    }
    const a = performance.now();
    let { fields, credentialJson } = job;
    if (!fields) {
      const document = JSON.parse(decoder.decode(credentialJson)) as { record: Record<string, unknown>; issuer?: { name?: string } };
      fields = printedFields(document.record, document.issuer?.name);
      credentialJson = encoder.encode(JSON.stringify(document));
    }
    const unsigned = await renderer.render(fields, photo, job.qr, credentialJson);
    const b = performance.now();
    // Signed (with the signature's time-stamp: B-T), then the DSS (B-LT) and the document
    // time-stamp (B-LTA), ADR 0135. The shared prefix (fonts, template: most of the file) is
    // hashed once per renderer, for the signature, the document time-stamp and the file's hash.
    const bt = await signPdf(unsigned, set.signer, { hashedPrefix: renderer.hashedPrefix(), timestamper: set.timestamper });
    const signed = await extendToLongTerm(bt, set.validation, set.timestamper, { hashedPrefix: renderer.hashedPrefix() });
    const c = performance.now();
    const timestampExpiresAt = set.tsaNotAfter ?? tsaNotAfterOf(signed);
    const prefix = renderer.hashedPrefix();
    const sha256 = prefix.hash.update(signed.subarray(prefix.length)).digest('hex');
    if (job.hold) {
      held.set(job.id, signed);
      heldFiles.set(job.id, job.files!);
      reply({ type: 'held', id: job.id, bytes: signed.byteLength, sha256, timestampExpiresAt, renderMs: b - a, signMs: c - b });
      return;
    }
    // The renderer's output owns its buffer; a view on a larger one is copied so only it travels.
    const pdf = signed.byteOffset === 0 && signed.byteLength === signed.buffer.byteLength ? signed : signed.slice();
    reply({ type: 'done', id: job.id, pdf, sha256, timestampExpiresAt, renderMs: b - a, signMs: c - b }, [pdf.buffer as ArrayBuffer]);
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    reply({ type: 'failed', id: job.id, message: e.message, stack: e.stack ?? '', ...(e instanceof PhotoMissing ? { code: 'photo_missing' as const } : {}) });
  }
}

/** The end of the TSA certificate of a PDF's last time-stamp (a remote TSA's, read from its token). */
function tsaNotAfterOf(pdf: Uint8Array): string {
  const last = latestTimestamp(pdf);
  if (!last) throw new Error('the PDF has no time-stamp that verifies');
  return new Date(new X509Certificate(last.tsaCertificateDer).validTo).toISOString();
}

reply({ type: 'ready' });
