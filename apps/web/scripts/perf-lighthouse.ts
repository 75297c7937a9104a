/**
 * `npm run lighthouse`: a Lighthouse mobile audit (its default: a mid-range phone, simulated slow
 * 4G, CPU ×4) of the public pages in Debian's Chromium, the four category scores and LCP, CLS, TBT
 * per page (issue 14's goals: Performance ≥ 90, the others 100, CLS < 0.05). An audit, not a test:
 * not part of CI's run; it exits non-zero only when it could not audit.
 *
 *   npm run build && npm run lighthouse                         # starts the platform (fresh demo data)
 *   npm run lighthouse -- --url http://host:3000 --id <id>     # a running platform, a published diploma
 *   options: --runs N (default 1; the median Performance run is printed), --port P, --json DIR (keeps each report),
 *            --pages /verify/{id},/login (only those of the four, by label),
 *            --paths /student-check,/register (other pages, by path, audited after those; the same goals),
 *            --devtools (Lighthouse's throttling applied to the real load rather than simulated from an
 *            unthrottled one: on a fast local server the simulation never sees the server-written verdict
 *            painted before the SPA, and charges its LCP with all the JavaScript)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeMachineProbe, probeMachine } from '@sceau/process/machine-probe';
import { option, startPlatform } from './perf-platform.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './perf-throttled.ts';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

const PAGES = [
  { label: '/', path: () => '/' },
  { label: '/verification', path: () => '/verification' },
  { label: '/verify/{id}', path: (id: string) => `/verify/${encodeURIComponent(id)}` },
  { label: '/login', path: () => '/login' },
];

interface Report {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; details?: unknown }>;
  runtimeError?: { message: string };
  /** Lighthouse's own measure of the host's speed (below 1000 it warns that the CPU is slower than it expects). */
  environment?: { benchmarkIndex?: number };
}

export interface Audit {
  page: string;
  scores: Record<(typeof CATEGORIES)[number], number | null>;
  fcp_ms: number | null;
  lcp_ms: number | null;
  cls: number | null;
  tbt_ms: number | null;
  si_ms: number | null;
  lcp_element: string | null;
}

/** Runs the Lighthouse CLI once (on the project's Node) and returns its JSON report. */
function lighthouse(url: string, devtools: boolean): Promise<{ report: Report; text: string }> {
  const cli = join(createRequire(import.meta.url).resolve('lighthouse/package.json'), '..', 'cli', 'index.js');
  const args = [
    cli,
    url,
    '--output=json',
    '--output-path=stdout',
    '--quiet',
    `--only-categories=${CATEGORIES.join(',')}`,
    `--chrome-flags=${CHROMIUM_FLAGS.join(' ')}`,
    ...(devtools ? ['--throttling-method=devtools'] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, CHROME_PATH: CHROMIUM_PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`lighthouse exited ${code} on ${url}: ${err.trim().split('\n').slice(-5).join(' | ')}`));
      try {
        const report = JSON.parse(out) as Report;
        if (report.runtimeError) return reject(new Error(`lighthouse on ${url}: ${report.runtimeError.message}`));
        resolve({ report, text: out });
      } catch (error) {
        reject(new Error(`lighthouse on ${url}: unreadable report (${(error as Error).message})`));
      }
    });
  });
}

function summarise(page: string, report: Report): Audit {
  const value = (id: string) => report.audits[id]?.numericValue ?? null;
  const score = (id: string) => {
    const raw = report.categories[id]?.score;
    return raw === null || raw === undefined ? null : Math.round(raw * 100);
  };
  // The LCP element's selector, from the LCP breakdown insight (Lighthouse 13).
  const element = JSON.stringify(report.audits['lcp-breakdown-insight']?.details ?? {}).match(/"selector":"((?:[^"\\]|\\.)*)"/)?.[1] ?? null;
  return {
    page,
    scores: Object.fromEntries(CATEGORIES.map((id) => [id, score(id)])) as Audit['scores'],
    fcp_ms: value('first-contentful-paint'),
    lcp_ms: value('largest-contentful-paint'),
    cls: value('cumulative-layout-shift'),
    tbt_ms: value('total-blocking-time'),
    si_ms: value('speed-index'),
    lcp_element: element,
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const runs = Number(option(argv, 'runs') ?? 1);
  if (!Number.isInteger(runs) || runs < 1 || runs > 9) throw new Error('--runs: a whole number from 1 to 9');
  const port = option(argv, 'port');
  const keep = option(argv, 'json');
  const devtools = argv.includes('--devtools');
  if (keep) mkdirSync(keep, { recursive: true });
  const only = option(argv, 'pages')?.split(',');
  const others = (option(argv, 'paths')?.split(',') ?? []).map((path) => {
    if (!/^\/[\w\-./%?=&]*$/.test(path)) throw new Error(`--paths: ${path} is not a path of the site`);
    return { label: path, path: () => path };
  });
  const pages = [...(only ? PAGES.filter((page) => only.includes(page.label)) : others.length ? [] : PAGES), ...others];
  if (pages.length === 0) throw new Error(`--pages: some of ${PAGES.map((page) => page.label).join(',')}`);
  // Scores from two runs compare only on machines that check alike (docs/performance.md, "The machine under the figures").
  const machineCheck = probeMachine();
  const benchmarkIndexes: number[] = [];
  const platform = await startPlatform({ url: option(argv, 'url'), id: option(argv, 'id'), ...(port ? { port: Number(port) } : {}) });
  const audits: Audit[] = [];
  try {
    // The diploma's verification cached by the server, as for any visitor but the first.
    await fetch(`${platform.baseURL}${PAGES[2]!.path(platform.verifyId)}`);
    for (const spec of pages) {
      const measured: Audit[] = [];
      for (let run = 0; run < runs; run++) {
        const { report, text } = await lighthouse(`${platform.baseURL}${spec.path(platform.verifyId)}`, devtools);
        measured.push(summarise(spec.label, report));
        if (report.environment?.benchmarkIndex !== undefined) benchmarkIndexes.push(report.environment.benchmarkIndex);
        if (keep) writeFileSync(join(keep, `${spec.label.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'home'}-${run + 1}.json`), text);
      }
      measured.sort((a, b) => (a.scores.performance ?? 0) - (b.scores.performance ?? 0));
      audits.push(measured[Math.floor(measured.length / 2)]!);
      process.stderr.write(`audited ${spec.label} (${runs} run${runs > 1 ? 's' : ''})\n`);
    }
  } finally {
    await platform.stop();
  }

  const s = (value: number | null) => (value === null ? '—' : `${(value / 1000).toFixed(2)} s`);
  const header = ['page', 'Performance', 'Accessibility', 'Best practices', 'SEO', 'FCP', 'LCP', 'CLS', 'TBT', 'LCP element'];
  const rows = audits.map((a) => [
    a.page,
    String(a.scores.performance ?? '—'),
    String(a.scores.accessibility ?? '—'),
    String(a.scores['best-practices'] ?? '—'),
    String(a.scores.seo ?? '—'),
    s(a.fcp_ms),
    s(a.lcp_ms),
    a.cls === null ? '—' : a.cls.toFixed(3),
    a.tbt_ms === null ? '—' : `${Math.round(a.tbt_ms)} ms`,
    a.lcp_element ?? '—',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  console.log(
    `\nLighthouse mobile (${devtools ? 'DevTools throttling of the real load' : 'simulated throttling'}), Debian's Chromium; ${runs > 1 ? `median Performance of ${runs} runs` : 'one run'} per page\n`,
  );
  for (const row of [header, ...rows]) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
  const indexes = benchmarkIndexes.length ? `${Math.round(Math.min(...benchmarkIndexes))}–${Math.round(Math.max(...benchmarkIndexes))}` : '—';
  console.log(`\n${describeMachineProbe(machineCheck)}\nLighthouse's benchmarkIndex over the runs: ${indexes} (it warns below 1000: a CPU slower than its ×4 assumes)`);
  const goals = audits.map((a) => ({
    page: a.page,
    met: (a.scores.performance ?? 0) >= 90 && CATEGORIES.slice(1).every((id) => a.scores[id] === 100) && a.cls !== null && a.cls < 0.05,
  }));
  console.log(`\n${goals.map((g) => `${g.met ? 'met   ' : 'MISSED'}  ${g.page}: Performance ≥ 90, the others 100, CLS < 0.05`).join('\n')}`);
  console.log(JSON.stringify({ throttling: devtools ? 'devtools' : 'simulate', runs, machineCheck, benchmarkIndexes, pages: audits, goals }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(`lighthouse: could not audit: ${(error as Error).message}`);
    process.exit(2);
  });
}
