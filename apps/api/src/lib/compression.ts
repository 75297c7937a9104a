/**
 * How the API compresses its answers (ADR 0126): JSON, HTML and text of 1 KB or more, brotli or
 * gzip as the client accepts; files compressed already (PDF, zip, PNG) as they are.
 *
 * Brotli's quality is a cost paid on every request against bytes saved on a slow network. The
 * app's default (4) is for answers of any kind; an answer written anew for nearly every request on
 * results day (a diploma's verdict by id, its public credential's hashes and signatures being most
 * of its bytes and compressing no better at 4 than at 1) uses `HOT_ROUTE_BROTLI_QUALITY`
 * (docs/performance.md, "Compression of the hot answers").
 */
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { constants } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answersUncompressed } from '../prometheus/metrics.ts';

export const DEFAULT_BROTLI_QUALITY = 4;
export const HOT_ROUTE_BROTLI_QUALITY = 1;

/** @fastify/compress's options, for the app (`app.register`) or one route (its `compress` option, which replaces them whole). */
export function compressionOptions(brotliQuality: number = DEFAULT_BROTLI_QUALITY) {
  return {
    encodings: ['br', 'gzip'] as Array<'br' | 'gzip'>,
    threshold: 1024,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality } },
    zlibOptions: { level: 6 },
  };
}

/** What `CompressionLoad` reads: the event loop's utilisation since a previous reading (perf_hooks). */
export type UtilizationSource = (since?: EventLoopUtilization) => EventLoopUtilization;

export interface CompressionLoadOptions {
  /** Utilisation (0–1) over a window at or above which compression stops. */
  stopAbove?: number;
  /** Utilisation under which it starts again (lower: no flapping around one value). */
  resumeBelow?: number;
  /** How long a window lasts, in ms; utilisation is read again at the first request after it. */
  windowMs?: number;
  utilization?: UtilizationSource;
  now?: () => number;
}

/**
 * Whether this process is too busy to compress answers whose bytes weigh little next to their
 * CPU (ADR 0126, amendment of 2026-11-28). The cold answer by id is about 6.7 KB as it is and 3.8
 * KB compressed: 60 ms more on 400 kbit/s, but compressing it takes a quarter of the CPU the
 * answer costs. When the event loop stays busy (a results-day peak: requests wait for the CPU),
 * answering uncompressed serves a third more people instead of making all of them queue; as soon
 * as the load drops, answers go out compressed again. Read at most once a window (one call to
 * perf_hooks per window, a comparison of times per request); the first window starts at the first
 * request (the process's start is not load), and a window lasts until the first request after its
 * end, so a pause reads as idle.
 */
export class CompressionLoad {
  private readonly stopAbove: number;
  private readonly resumeBelow: number;
  private readonly windowMs: number;
  private readonly utilization: UtilizationSource;
  private readonly now: () => number;
  /** The last reading and its time; none before the first request (a start's own work is not load). */
  private reading: EventLoopUtilization | null = null;
  private readAt = 0;
  private busy = false;

  constructor(options: CompressionLoadOptions = {}) {
    this.stopAbove = options.stopAbove ?? 0.9;
    this.resumeBelow = options.resumeBelow ?? 0.7;
    this.windowMs = options.windowMs ?? 1000;
    this.utilization = options.utilization ?? ((since) => performance.eventLoopUtilization(since));
    this.now = options.now ?? (() => performance.now());
    if (!(this.resumeBelow <= this.stopAbove)) throw new Error('compression resumes below a utilisation no higher than the one it stops at');
  }

  /** True while answers that allow it should go out as they are. */
  saturated(): boolean {
    const now = this.now();
    if (this.reading === null) {
      this.reading = this.utilization();
      this.readAt = now;
    } else if (now - this.readAt >= this.windowMs) {
      const reading = this.utilization();
      const { utilization } = this.utilization(this.reading);
      this.reading = reading;
      this.readAt = now;
      this.busy = this.busy ? utilization >= this.resumeBelow : utilization >= this.stopAbove;
    }
    return this.busy;
  }
}

/** This process's load, shared by the routes that yield their compression to it. */
export const processCompressionLoad = new CompressionLoad();

/**
 * Sends this answer as it is: @fastify/compress leaves alone a request carrying
 * `x-no-compression`. `Vary` still says the answer depends on Accept-Encoding, as the compressed
 * one does, so that no cache keeps it as the only form.
 */
export function answerUncompressed(request: FastifyRequest, reply: FastifyReply): void {
  if (request.headers['accept-encoding']) answersUncompressed.inc({ route: request.routeOptions.url ?? 'unknown' });
  request.headers['x-no-compression'] = '1';
  reply.header('vary', 'accept-encoding');
}
