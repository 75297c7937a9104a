// A render pool worker (see render-pool.ts): holds one DiplomaRenderer per template set-up and the
// ministry's PDF signer (node:crypto), renders and PAdES-signs the diplomas it is sent, and sends
// the signed bytes back by transfer (no copy).
import { createDiplomaRenderer, createKeySigner, signPdf, type DiplomaRenderer, type Signer } from '@sceau/pdf';
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { printedFields } from './printed-fields.ts';
import type { WorkerReply, WorkerRequest } from './render-pool.ts';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

if (!parentPort) throw new Error('render-worker.ts runs as a worker thread of the render pool');
const port = parentPort;

interface Loaded {
  renderer: Promise<DiplomaRenderer>;
  signer: Signer;
}
const loaded = new Map<string, Loaded>();

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
      loaded.set(setup.key, { renderer, signer: createKeySigner({ privateKey: setup.signer.privateKeyPem, certificateChainDer: setup.signer.certificateChainDer }) });
      return;
    }
    case 'drop':
      loaded.delete(message.key);
      return;
    case 'render':
      void render(message);
      return;
    case 'crash':
      // Tests: a worker that dies in the middle of its work.
      process.exit(7);
  }
});

async function render(job: Extract<WorkerRequest, { type: 'render' }>) {
  try {
    const set = loaded.get(job.key);
    if (!set) throw new Error(`render worker: no set-up ${job.key}`);
    const renderer = await set.renderer;
    const a = performance.now();
    let { fields, credentialJson } = job;
    if (!fields) {
      const document = JSON.parse(decoder.decode(credentialJson)) as { record: Record<string, unknown> };
      fields = printedFields(document.record);
      credentialJson = encoder.encode(JSON.stringify(document));
    }
    const unsigned = await renderer.render(fields, job.photo, job.qr, credentialJson);
    const b = performance.now();
    // What renderSigned does, in two steps so that each is timed. The shared prefix (fonts,
    // template: most of the file) is hashed once per renderer, for the signature and for the file's hash.
    const signed = await signPdf(unsigned, set.signer, { hashedPrefix: renderer.hashedPrefix() });
    const c = performance.now();
    const prefix = renderer.hashedPrefix();
    const sha256 = prefix.hash.update(signed.subarray(prefix.length)).digest('hex');
    // The renderer's output owns its buffer; a view on a larger one is copied so only it travels.
    const pdf = signed.byteOffset === 0 && signed.byteLength === signed.buffer.byteLength ? signed : signed.slice();
    reply({ type: 'done', id: job.id, pdf, sha256, renderMs: b - a, signMs: c - b }, [pdf.buffer as ArrayBuffer]);
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    reply({ type: 'failed', id: job.id, message: e.message, stack: e.stack ?? '' });
  }
}

reply({ type: 'ready' });
