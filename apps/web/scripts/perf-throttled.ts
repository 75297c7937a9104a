/**
 * `npm run perf:throttled`: the public pages as a new visitor on a cheap phone and a slow network
 * sees them (issue 14): 400 kbit/s each way, 400 ms round trip, a CPU four times slower, set through
 * the Chrome DevTools Protocol (Network.emulateNetworkConditions, Emulation.setCPUThrottlingRate) in
 * Debian's Chromium. Each load is a new browser context: cold cache, no service worker.
 *
 *   npm run build && npm run perf:throttled                      # starts the platform (fresh demo data)
 *   npm run perf:throttled -- --url http://host:3000 --id <id>  # a running platform, a published diploma
 *   options: --runs N (default 3; the median is printed), --port P (the platform started here)
 *
 * Prints per page: first contentful paint, largest contentful paint (and its element), when the
 * page's content is visible (a selector: the verdict on /verify/{id}, the page's heading elsewhere),
 * when the SPA has replaced what the server sent, layout shift, requests and bytes transferred;
 * then the goals (verdict within 3 s on /verify/{id}, first content within 2 s on / and
 * /verification) and one JSON line. A benchmark, not a test: it exits 0 whatever the figures,
 * and non-zero only when it could not measure.
 */
import { type Browser, type CDPSession, chromium } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { option, startPlatform } from './perf-platform.ts';

export const THROTTLING = { downloadKbps: 400, uploadKbps: 400, latencyMs: 400, cpuSlowdown: 4 } as const;

/** Debian's Chromium, with the journeys' flags (e2e/playwright.config.ts). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

interface PageSpec {
  label: string;
  path: (id: string) => string;
  /** What shows the page's content (not the app shell's skeleton). */
  content: string;
  /** The goal, on `metric`, in milliseconds. */
  goal?: { metric: 'fcp' | 'content'; ms: number; says: string };
}

export const PAGES: PageSpec[] = [
  { label: '/', path: () => '/', content: 'main h1', goal: { metric: 'fcp', ms: 2000, says: 'first content within 2 s' } },
  { label: '/verification', path: () => '/verification', content: 'main h1', goal: { metric: 'fcp', ms: 2000, says: 'first content within 2 s' } },
  {
    label: '/verify/{id}',
    path: (id) => `/verify/${encodeURIComponent(id)}`,
    content: '[data-testid="verdict-banner"]',
    goal: { metric: 'content', ms: 3000, says: 'verdict within 3 s' },
  },
  { label: '/login', path: () => '/login', content: 'main h1' },
];

export interface Figures {
  fcp: number | null;
  lcp: number | null;
  lcpElement: string | null;
  /** The content selector first visible (a frame's start). */
  content: number | null;
  /** The SPA's first render: neither the app shell nor the server's verdict left in #root. */
  spa: number | null;
  load: number | null;
  cls: number;
  requests: number;
  bytes: number;
  scriptBytes: number;
}

/** Runs in the page before its first byte: records paints, shifts and when the selector shows (`window.__perf`). */
function instrument(selector: string): void {
  type Perf = { fcp: number | null; lcp: number | null; lcpElement: string | null; content: number | null; spa: number | null; cls: number };
  const perf: Perf = { fcp: null, lcp: null, lcpElement: null, content: null, spa: null, cls: 0 };
  (window as unknown as { __perf: Perf }).__perf = perf;
  const describe = (element: Element | null) =>
    element ? `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.classList.length ? `.${[...element.classList].join('.')}` : ''}` : null;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') perf.fcp = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    const last = list.getEntries().at(-1) as (PerformanceEntry & { element: Element | null }) | undefined;
    if (!last) return;
    perf.lcp = last.startTime;
    perf.lcpElement = describe(last.element);
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!entry.hadRecentInput) perf.cls += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
  const visible = (element: Element | null) => !!element && element.getBoundingClientRect().height > 0 && element.checkVisibility();
  const frame = (time: number) => {
    if (perf.content === null && visible(document.querySelector(selector))) perf.content = time;
    const root = document.getElementById('root');
    // While the HTML is still arriving (a slow network streams it), #root can hold the server's first
    // elements without its verdict yet: that is not the SPA, whose module scripts run only once parsing ends.
    const parsed = document.readyState !== 'loading';
    if (perf.spa === null && parsed && root?.firstElementChild && !root.querySelector('.app-shell, [data-server-verdict], [data-first-screen]')) perf.spa = time;
    if (perf.content === null || perf.spa === null) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** `instrument` as an init script's source (tsx keeps function names with a `__name` helper the page does not have). */
export function instrumentScript(selector: string): string {
  return `(() => { const __name = (f) => f; (${instrument.toString()})(${JSON.stringify(selector)}); })();`;
}

/** The slow network and CPU on a page's DevTools session. */
export async function throttle(cdp: CDPSession): Promise<void> {
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: THROTTLING.latencyMs,
    downloadThroughput: (THROTTLING.downloadKbps * 1000) / 8,
    uploadThroughput: (THROTTLING.uploadKbps * 1000) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING.cpuSlowdown });
}

/** One cold load of `url`, throttled, until the network has been quiet for a second after load and content. */
async function measureOnce(browser: Browser, url: string, selector: string): Promise<Figures> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'fr-FR' });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: instrumentScript(selector) });
    const cdp = await context.newCDPSession(page);
    await throttle(cdp);
    const inFlight = new Map<string, string>();
    let requests = 0;
    let bytes = 0;
    let scriptBytes = 0;
    let lastActivity = Date.now();
    cdp.on('Network.requestWillBeSent', (event) => {
      inFlight.set(event.requestId, event.type ?? '');
      requests++;
      lastActivity = Date.now();
    });
    cdp.on('Network.loadingFinished', (event) => {
      bytes += event.encodedDataLength;
      if (inFlight.get(event.requestId) === 'Script') scriptBytes += event.encodedDataLength;
      inFlight.delete(event.requestId);
      lastActivity = Date.now();
    });
    cdp.on('Network.loadingFailed', (event) => {
      inFlight.delete(event.requestId);
      lastActivity = Date.now();
    });
    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    // The content shown and the SPA started (its JavaScript can run seconds after the last byte).
    await page.waitForFunction(
      () => {
        const perf = (window as unknown as { __perf: { content: number | null; spa: number | null } }).__perf;
        return perf.content !== null && perf.spa !== null;
      },
      undefined,
      { timeout: 90_000, polling: 250 },
    );
    const until = Date.now() + 60_000;
    while (Date.now() < until && (inFlight.size > 0 || Date.now() - lastActivity < 1000)) await page.waitForTimeout(200);
    const measured = await page.evaluate(() => {
      const w = window as unknown as { __perf: Omit<Figures, 'load' | 'requests' | 'bytes' | 'scriptBytes'> };
      const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      return { ...w.__perf, load: navigation ? navigation.loadEventStart : null };
    });
    // The frame that first holds the content is painted no earlier than the first paint.
    const content = measured.content !== null && measured.fcp !== null ? Math.max(measured.content, measured.fcp) : measured.content;
    return { ...measured, content, requests, bytes, scriptBytes };
  } finally {
    await context.close();
  }
}

const median = (values: (number | null)[]): number | null => {
  const known = values.filter((value): value is number => value !== null).sort((a, b) => a - b);
  if (known.length === 0) return null;
  const middle = Math.floor(known.length / 2);
  return known.length % 2 ? known[middle]! : (known[middle - 1]! + known[middle]!) / 2;
};

/** The run whose content time is the median's (its LCP element is printed). */
function medianFigures(runs: Figures[]): Figures {
  const pick = <K extends keyof Figures>(key: K) => median(runs.map((run) => run[key] as number | null));
  const content = pick('content');
  const closest = [...runs].sort((a, b) => Math.abs((a.content ?? 0) - (content ?? 0)) - Math.abs((b.content ?? 0) - (content ?? 0)))[0]!;
  return {
    fcp: pick('fcp'),
    lcp: pick('lcp'),
    lcpElement: closest.lcpElement,
    content,
    spa: pick('spa'),
    load: pick('load'),
    cls: pick('cls') ?? 0,
    requests: pick('requests') ?? 0,
    bytes: pick('bytes') ?? 0,
    scriptBytes: pick('scriptBytes') ?? 0,
  };
}

const ms = (value: number | null) => (value === null ? '—' : `${(value / 1000).toFixed(2)} s`);
const kb = (value: number) => `${(value / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const runs = Number(option(argv, 'runs') ?? 3);
  if (!Number.isInteger(runs) || runs < 1 || runs > 20) throw new Error('--runs: a whole number from 1 to 20');
  const port = option(argv, 'port');
  const platform = await startPlatform({ url: option(argv, 'url'), id: option(argv, 'id'), ...(port ? { port: Number(port) } : {}) });
  const results: { page: string; figures: Figures; runs: Figures[] }[] = [];
  try {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
    try {
      // One unthrottled load first: the server's caches (a diploma's verification) are warm, as for a
      // visitor who is not the first to open the diploma this minute; the browser's is not (new contexts).
      const warm = await browser.newContext();
      await (await warm.newPage()).goto(`${platform.baseURL}${PAGES[2]!.path(platform.verifyId)}`);
      await warm.close();
      for (const spec of PAGES) {
        const url = `${platform.baseURL}${spec.path(platform.verifyId)}`;
        const measured: Figures[] = [];
        for (let run = 0; run < runs; run++) measured.push(await measureOnce(browser, url, spec.content));
        results.push({ page: spec.label, figures: medianFigures(measured), runs: measured });
        process.stderr.write(`measured ${spec.label} (${runs} run${runs > 1 ? 's' : ''})\n`);
      }
    } finally {
      await browser.close();
    }
  } finally {
    await platform.stop();
  }

  const { downloadKbps, latencyMs, cpuSlowdown } = THROTTLING;
  console.log(`\n${downloadKbps} kbit/s, ${latencyMs} ms RTT, CPU ×${cpuSlowdown}; cold cache; median of ${runs} run${runs > 1 ? 's' : ''}; times from navigation start\n`);
  const header = ['page', 'FCP', 'LCP', 'content', 'SPA', 'load', 'CLS', 'requests', 'transferred', 'of which JS', 'LCP element'];
  const rows = results.map(({ page, figures: f }) => [
    page,
    ms(f.fcp),
    ms(f.lcp),
    ms(f.content),
    ms(f.spa),
    ms(f.load),
    f.cls.toFixed(3),
    String(f.requests),
    kb(f.bytes),
    kb(f.scriptBytes),
    f.lcpElement ?? '—',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
  console.log('\ncontent: the verdict banner on /verify/{id}, the page heading elsewhere; SPA: the app has replaced what the server sent\n');
  const goals = PAGES.flatMap((spec) => {
    const result = results.find((r) => r.page === spec.label);
    if (!spec.goal || !result) return [];
    const value = result.figures[spec.goal.metric];
    const met = value !== null && value <= spec.goal.ms;
    console.log(`${met ? 'met   ' : 'MISSED'}  ${spec.label}: ${spec.goal.says} (${spec.goal.metric === 'fcp' ? 'FCP' : 'content'} ${ms(value)})`);
    return [{ page: spec.label, goal: spec.goal.says, value_ms: value, met }];
  });
  console.log(JSON.stringify({ throttling: THROTTLING, runs, pages: results.map(({ page, figures }) => ({ page, ...figures })), goals }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(`perf:throttled: could not measure: ${(error as Error).message}`);
    process.exit(2);
  });
}
