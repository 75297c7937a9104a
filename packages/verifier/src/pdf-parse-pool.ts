/**
 * Parser threads for PDFs that are not the issuer's own (ADR 0114): pdf-lib parses a whole document
 * synchronously, in memory, at a cost the file's author chooses. Here it runs in a worker thread
 * with a V8 heap limit (`resourceLimits`), a budget of decoded bytes and a checked object count
 * (pdf-parse-worker.ts), and a deadline past which the thread is terminated and replaced. The
 * calling event loop only sends the bytes and receives the parts.
 *
 * Hand-written rather than a pool library: what is needed is exactly node:worker_threads' own
 * `resourceLimits` and `terminate()`, a bounded queue, and a thread that starts on first use.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PDF_PARSE_LIMITS, PdfParserBusy, PdfTooComplex, type PdfLimitReason, type PdfParseLimits } from './pdf-limits.ts';
import type { ParseAnswer, ParseRequest } from './pdf-parse-worker.ts';
import type { PdfParts } from './pdf-parts.ts';

export interface PdfParsePoolOptions {
  /** Parser threads (default 1: the other core stays with the event loop). */
  threads?: number;
  /** Documents waiting for a thread before PdfParserBusy (default 8). */
  maxQueue?: number;
  /** A thread idle this long is stopped (default 60 s); the next document starts one again. */
  idleMs?: number;
  /** Longest wait for a new thread to load its modules (default 60 s; not counted in timeoutMs). */
  startupMs?: number;
  limits?: Partial<PdfParseLimits>;
}

export interface PdfParsePoolStats {
  threads: number;
  busy: number;
  queued: number;
  /** Threads stopped by a limit (deadline, heap) since the pool was made. */
  stopped: number;
}

export interface PdfParsePool {
  /** The PDF's parts, or PdfTooComplex (a limit was passed), or PdfParserBusy (queue full). */
  parse(pdf: Uint8Array, attachmentName: string): Promise<PdfParts>;
  stats(): PdfParsePoolStats;
  /** Stops every thread; documents in progress or waiting are refused. */
  close(): Promise<void>;
}

const WORKER_URL = new URL('./pdf-parse-worker.ts', import.meta.url);

/** The thread runs the TypeScript sources as the API does (`--import tsx`), under vitest too. */
function workerExecArgv(): string[] {
  return ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
}

interface Task {
  pdf: Uint8Array;
  attachmentName: string;
  resolve(parts: PdfParts): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task: (Task & { id: number; timer: NodeJS.Timeout }) | null;
  /** Set when this pool ended the thread, with the reason to give its document. */
  stoppedFor: PdfLimitReason | null;
  error: (Error & { code?: string }) | null;
  idle: NodeJS.Timeout | null;
  startup: NodeJS.Timeout | null;
  /** A document waiting for this thread to finish loading. */
  pending: Task | null;
  /** Stopped for being idle: given no more documents while it exits. */
  retiring: boolean;
}

export function createPdfParsePool(options: PdfParsePoolOptions = {}): PdfParsePool {
  const limits: PdfParseLimits = { ...PDF_PARSE_LIMITS, ...options.limits };
  const threads = Math.max(1, options.threads ?? 1);
  const maxQueue = options.maxQueue ?? 8;
  const idleMs = options.idleMs ?? 60_000;
  const startupMs = options.startupMs ?? 60_000;
  const slots: Slot[] = [];
  const queue: Task[] = [];
  let nextId = 1;
  let stopped = 0;
  let closed = false;

  const stop = (slot: Slot, reason: PdfLimitReason) => {
    slot.stoppedFor ??= reason;
    void slot.worker.terminate();
  };

  function spawn(first: Task): void {
    const worker = new Worker(WORKER_URL, {
      execArgv: workerExecArgv(),
      name: 'sceau-pdf-parse',
      resourceLimits: { maxOldGenerationSizeMb: limits.maxOldGenerationSizeMb, maxYoungGenerationSizeMb: limits.maxYoungGenerationSizeMb },
    });
    const slot: Slot = { worker, ready: false, task: null, stoppedFor: null, error: null, idle: null, startup: null, pending: first, retiring: false };
    slots.push(slot);
    slot.startup = setTimeout(() => stop(slot, 'crashed'), startupMs);
    worker.on('message', (message: ParseAnswer | { ready: true }) => {
      if ('ready' in message) {
        clearTimeout(slot.startup!);
        slot.ready = true;
        const task = slot.pending;
        slot.pending = null;
        if (task) run(slot, task);
        return;
      }
      const task = slot.task;
      if (!task || task.id !== message.id) return;
      clearTimeout(task.timer);
      slot.task = null;
      if (message.ok) task.resolve({ attachment: message.attachment, codes: message.codes });
      else task.reject(new PdfTooComplex(message.reason));
      next(slot);
    });
    worker.on('error', (error: Error) => {
      slot.error = error;
    });
    worker.on('exit', () => {
      slots.splice(slots.indexOf(slot), 1);
      clearTimeout(slot.startup!);
      if (slot.idle) clearTimeout(slot.idle);
      const reason: PdfLimitReason = slot.error?.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : (slot.stoppedFor ?? 'crashed');
      if (slot.task || slot.pending) {
        if (reason !== 'crashed') stopped++;
        if (slot.task) clearTimeout(slot.task.timer);
        (slot.task ?? slot.pending)!.reject(closed ? new PdfParserBusy() : new PdfTooComplex(reason));
      }
      // Documents still waiting get a new thread.
      const waiting = queue.shift();
      if (waiting && !closed) spawn(waiting);
    });
  }

  function run(slot: Slot, task: Task): void {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    slot.worker.ref();
    const id = nextId++;
    // The deadline starts with the work, not with the thread's start-up (module loading).
    slot.task = { ...task, id, timer: setTimeout(() => stop(slot, 'timeout'), limits.timeoutMs) };
    const request: ParseRequest = { id, pdf: task.pdf, attachmentName: task.attachmentName, limits };
    slot.worker.postMessage(request, [task.pdf.buffer as ArrayBuffer]);
  }

  function next(slot: Slot): void {
    const task = queue.shift();
    if (task) {
      run(slot, task);
      return;
    }
    // An idle thread does not keep the process alive, and is stopped after a while.
    slot.worker.unref();
    slot.idle = setTimeout(() => {
      slot.retiring = true;
      void slot.worker.terminate();
    }, idleMs);
    slot.idle.unref();
  }

  return {
    parse(pdf, attachmentName) {
      if (closed) return Promise.reject(new PdfParserBusy());
      return new Promise<PdfParts>((resolve, reject) => {
        // A copy of its own, transferred to the thread: the caller's bytes stay as they are.
        const task: Task = { pdf: Uint8Array.prototype.slice.call(pdf), attachmentName, resolve, reject };
        const idle = slots.find((s) => s.ready && !s.task && !s.retiring);
        if (idle) run(idle, task);
        else if (slots.length < threads) spawn(task);
        else if (queue.length < maxQueue) queue.push(task);
        else reject(new PdfParserBusy());
      });
    },
    stats: () => ({ threads: slots.length, busy: slots.filter((s) => s.task || s.pending).length, queued: queue.length, stopped }),
    async close() {
      closed = true;
      for (const task of queue.splice(0)) task.reject(new PdfParserBusy());
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
