import type { Locale } from '@sceau/contracts';
import type { PublicDiploma, VerificationResult } from '@sceau/verifier';
import { keptText, type Translate as RequestTranslate } from '../../lib/i18n.ts';
import { DIPLOMA_ID_PATTERN, endpoints } from '@sceau/contracts';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Config } from '../../config.ts';
import { APP_ROOT, type ServerPage } from '../../plugins/web.ts';
import { VERIFY_LIMIT_PER_MINUTE } from './verification-routes.ts';
import { presentResult, type VerificationService } from './verification-service.ts';

/**
 * The verdict of `/verify/{id}` and `/view-certificate?id=` as HTML, written by the server into
 * index.html's root (ADR 0128): readable before any JavaScript (or without it), in the order the web
 * page uses (verdict, holder, diploma, how it was checked). The SPA boots on the same page, reads
 * the embedded answer instead of asking again, and replaces this markup with its own.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** JSON inside a script element: `<`, `>` and `&` as escapes, so no text can close the element. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The element id of the embedded answer the SPA reads (apps/web verification/server-verdict.ts). */
export const SERVER_VERDICT_ELEMENT = 'sceau-verify-data';

const VERDICT_ICON: Record<string, string> = {
  authentic: '<path d="M6.5 12.5l3.5 3.5 7.5-8"/>',
  revoked: '<path d="M8 8l8 8M16 8l-8 8"/>',
  altered: '<path d="M8 8l8 8M16 8l-8 8"/>',
  unknown: '<path d="M9.2 9.3a2.9 2.9 0 1 1 3.9 2.7c-.7.3-1.1.9-1.1 1.6v.6M12 17.6v.1"/>',
  unpublished: '<path d="M12 6.8V12l3.4 2.2"/>',
  incomplete: '<path d="M12 6.8v6.4M12 17.3v.1"/>',
};
const STATUS_ICON: Record<string, string> = { passed: VERDICT_ICON.authentic!, failed: VERDICT_ICON.altered!, 'not-checked': '<path d="M7.5 12h9"/>' };
const STATUS_ORDER: Record<string, number> = { failed: 0, 'not-checked': 1, passed: 2 };

const icon = (shape: string, className: string) =>
  `<svg class="${className}" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="11" fill="currentColor"/><g fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round">${shape}</g></svg>`;

/**
 * Kept small: the page's own look until the SPA's stylesheet chunk takes over (app.css is inline,
 * ADR 0131). The verdict banner has the sizes of the SPA's (verification.css): the takeover redraws
 * it at the same size, so its text stays the page's largest paint (LCP) from the first frame.
 */
const STYLE = `<style>
.ssr-verify{max-width:48rem}
.ssr-verdict{display:flex;gap:.85rem;align-items:flex-start;padding:1rem;border-radius:var(--radius);border:2px solid;margin:0 0 1rem}
.ssr-verdict__icon{flex:none;width:2.5rem;height:2.5rem}
.ssr-verdict p{margin:0}
.ssr-verdict .ssr-verdict__label{font-size:clamp(1.25rem,2vw + .9rem,1.6rem);font-weight:800;line-height:1.2;margin:0 0 .25rem}
.ssr-verdict .ssr-verdict__when{margin:.35rem 0 0;font-size:.9rem;color:var(--color-muted)}
.ssr-verdict--authentic{color:var(--color-green);background:var(--color-green-tint)}
.ssr-verdict--revoked,.ssr-verdict--altered,.ssr-verdict--unknown{color:var(--color-red);background:var(--color-red-tint)}
.ssr-verdict--unpublished,.ssr-verdict--incomplete{color:#7a4b00;background:#fff4d6}
.ssr-verdict p:not(.ssr-verdict__label,.ssr-verdict__when){color:var(--color-text)}
.ssr-holder{display:flex;gap:1rem;align-items:flex-start;flex-wrap:wrap;margin:0 0 1rem}
.ssr-holder img{width:120px;height:160px;object-fit:cover;border-radius:var(--radius);background:var(--color-border)}
.ssr-holder__name{font-size:1.25rem;font-weight:700;margin:0 0 .5rem}
.ssr-facts{margin:0;display:grid;gap:.25rem}
.ssr-facts div{display:flex;flex-wrap:wrap;gap:.25rem .5rem}
.ssr-facts dt{color:var(--color-muted)}
.ssr-facts dd{margin:0;font-weight:600}
.ssr-checks{list-style:none;padding:0;margin:0 0 1rem;display:grid;gap:.5rem}
.ssr-checks li{display:flex;gap:.5rem;align-items:flex-start}
.ssr-checks svg{flex:none;width:1.25rem;height:1.25rem}
.ssr-check--passed{color:var(--color-green)}.ssr-check--failed{color:var(--color-red)}.ssr-check--not-checked{color:var(--color-muted)}
.ssr-checks p{margin:0;color:var(--color-text)}
.ssr-details code{word-break:break-all}
@media print{.site-header,.site-footer,.ssr-noprint{display:none}}
</style>`;

type Translate = (key: string, options?: Record<string, unknown>) => string;

function fullName(d: PublicDiploma): string | null {
  const name = [d.first_name, d.middle_name, d.last_name].filter((part) => part?.trim()).join(' ');
  return name || null;
}

/**
 * The page's date formats per language, made once: building an Intl formatter costs more than the
 * rest of a date (it loads the language's data), and the page is written for every request.
 */
const FORMATS = new Map<string, { calendar: Intl.DateTimeFormat; moment: Intl.DateTimeFormat }>();
function formatsOf(locale: Locale) {
  let formats = FORMATS.get(locale);
  if (!formats) {
    formats = {
      calendar: new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }),
      moment: new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }),
    };
    FORMATS.set(locale, formats);
  }
  return formats;
}

function calendarDate(value: string, locale: Locale): string {
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? value : formatsOf(locale).calendar.format(date);
}

/** The page's texts: those without parameters kept per language and key (`keptText`). */
function keptTexts(t: Translate, locale: Locale): Translate {
  return (key, options) => (options ? t(key, options) : keptText(locale, key));
}

function fact(label: string, value: string | null | undefined): string {
  return value ? `<div><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd></div>` : '';
}

/** Verdicts under which the diploma's photo and PDF are served (as public-diploma.tsx). */
const isServed = (verdict: string) => verdict === 'authentic' || verdict === 'incomplete';

/** A public diploma file's address, from its endpoint definition (ADR 0125). */
const fileUrl = (definition: { path: string }, id: string) => `/api${definition.path.replace(':id', encodeURIComponent(id))}`;

export interface VerifyPageContent {
  id: string;
  result: VerificationResult;
  /** The public credential, as `GET /api/verify/:id` gives it (embedded for the SPA; ADR 0134). */
  credential: unknown | null;
  /** The kind of diploma (its batch's type), when known. */
  kind: string | null;
  locale: Locale;
  t: RequestTranslate;
  explorerTxUrl: string | null;
  /** When this answer was given (the page says "checked on"). */
  checkedAt: Date;
  /** Where the page is: `/verify/{id}` or `/view-certificate`. */
  page: 'verify' | 'view-certificate';
}

/** The markup inside the SPA's root: the same order as the React page. */
export function renderVerifyMarkup(content: VerifyPageContent): string {
  const { id, result, locale } = content;
  const t = keptTexts(content.t as unknown as Translate, locale);
  const d = result.diploma;
  const verdictLabel = t(`verification:verdict.${result.verdict}`);
  const name = d ? fullName(d) : null;
  const session = d?.session ?? (d?.session_year !== undefined ? String(d.session_year) : null);
  const checkedOn = formatsOf(locale).moment.format(content.checkedAt);
  const title = content.page === 'verify' ? t('web:verify.resultTitle') : t('web:viewCertificate.title');

  const parts: string[] = [];
  parts.push(`<h1>${escapeHtml(title)}</h1>`);
  parts.push(
    `<div class="ssr-verdict ssr-verdict--${result.verdict}" role="status" data-testid="verdict-banner" data-verdict="${result.verdict}">${icon(VERDICT_ICON[result.verdict] ?? '', 'ssr-verdict__icon')}<div><p class="ssr-verdict__label">${escapeHtml(verdictLabel)}</p><p>${escapeHtml(t(`web:verify.explain.${result.verdict}`))}</p><p class="ssr-verdict__when">${escapeHtml(t('web:verify.checkedOn', { date: checkedOn }))}</p></div></div>`,
  );

  if (d) {
    const photo = isServed(result.verdict)
      ? `<img src="${fileUrl(endpoints.verification.photo, d.id)}" width="120" height="160" alt="${escapeHtml(name ? t('web:publicDiploma.photoOf', { name }) : t('web:publicDiploma.photo'))}" data-testid="diploma-photo">`
      : '';
    const facts = [
      fact(t('web:verify.fields.kind'), content.kind ? t(`web:verify.kinds.${content.kind}`) : null),
      fact(t('web:verify.fields.option'), d.option ?? null),
      fact(t('web:verify.fields.session'), session),
      fact(t('web:verify.fields.school'), d.school ?? null),
      fact(t('web:verify.fields.issuer'), d.issuer?.name ?? null),
      fact(t('web:verify.fields.issueDate'), d.issue_date ? calendarDate(d.issue_date, locale) : null),
      fact(t('web:verify.fields.serial'), d.serial ?? null),
      fact(t('web:verify.fields.number'), d.id),
    ].join('');
    parts.push(
      `<section class="ssr-holder" aria-label="${escapeHtml(t('web:verify.diplomaTitle'))}" data-testid="verification-diploma">${photo}<div>${name ? `<p class="ssr-holder__name">${escapeHtml(name)}</p>` : ''}<dl class="ssr-facts">${facts}</dl></div></section>`,
    );
    // The signed PDF as a plain link: the browser downloads it, JavaScript or not (counted by the server).
    if (isServed(result.verdict))
      parts.push(
        `<p class="ssr-noprint"><a class="button" href="${fileUrl(endpoints.verification.pdf, d.id)}" download="diplome-${escapeHtml(d.id)}.pdf" data-testid="diploma-download">${escapeHtml(t('web:publicDiploma.download'))}</a></p>`,
      );
  } else {
    parts.push(`<p>${escapeHtml(t('web:verify.diplomaNumber'))} <code>${escapeHtml(id)}</code></p>`);
  }

  const checks = [...result.checks].sort((a, b) => (STATUS_ORDER[a.status] ?? 1) - (STATUS_ORDER[b.status] ?? 1));
  if (checks.length) {
    const items = checks
      .map(
        (c) =>
          `<li class="ssr-check--${c.status}" data-check="${escapeHtml(c.name)}" data-status="${c.status}">${icon(STATUS_ICON[c.status] ?? '', '')}<div><strong>${escapeHtml(t(`verification:check.${c.name}`))}</strong> <span class="visually-hidden">(${escapeHtml(t(`web:verify.status.${c.status}`))})</span><p>${escapeHtml(t(`verification:code.${c.code}`))}</p></div></li>`,
      )
      .join('');
    const technical: string[] = [];
    if (result.hashes?.targetHash) technical.push(fact(t('web:verify.facts.targetHash'), result.hashes.targetHash));
    if (result.hashes?.merkleRoot) technical.push(fact(t('web:verify.facts.batchRoot'), result.hashes.merkleRoot));
    for (const c of result.checks) {
      const details = (c.details ?? {}) as Record<string, unknown>;
      if (c.name === 'anchored' && typeof details.txHash === 'string') technical.push(fact(t('web:verify.facts.transaction'), details.txHash));
      if (c.name === 'anchored' && typeof details.contract === 'string') technical.push(fact(t('web:verify.facts.contract'), details.contract));
    }
    parts.push(
      `<section aria-labelledby="ssr-checks-title"><h2 id="ssr-checks-title">${escapeHtml(t('web:verify.howChecked'))}</h2><ul class="ssr-checks" data-testid="verification-checks">${items}</ul>${
        technical.length ? `<details class="ssr-details"><summary>${escapeHtml(t('web:verify.technical'))}</summary><dl class="ssr-facts">${technical.join('')}</dl></details>` : ''
      }</section>`,
    );
  }
  parts.push(`<p class="ssr-noprint"><a href="/verification">${escapeHtml(t('web:verify.another'))}</a></p>`);
  return `<div class="container page ssr-verify" data-server-verdict="${escapeHtml(id)}">${parts.join('')}</div>`;
}

/** A static header and footer around the verdict, the shell's (index.html) look. */
function shell(inner: string, t: Translate): string {
  return `<div class="layout"><header class="site-header"><div class="container site-header__bar"><a class="brand" href="/">Sceau</a></div></header><main id="main-content" class="layout__main">${inner}</main><footer class="site-footer ssr-noprint"><div class="container"><p>${escapeHtml(t('web:verify.share.title'))}</p></div></footer></div>`;
}

/**
 * index.html cut around what the verdict page writes, per language: the head up to `</head>` (the
 * language set, the title taken out: it is the answer's), what lies between it and the root, and
 * what follows the root. The head is then the same text on every answer in a language, which the
 * server compresses once (ADR 0156); made once per template and language.
 */
interface PageFrame {
  head: string;
  middle: string;
  tail: string;
}
const FRAMES = new Map<string, Map<Locale, PageFrame | null>>();
function frameOf(template: string, locale: Locale): PageFrame | null {
  let frames = FRAMES.get(template);
  if (!frames) {
    // One template a process in practice (index.html with the configuration); a test may make more.
    if (FRAMES.size >= 4) FRAMES.clear();
    FRAMES.set(template, (frames = new Map()));
  }
  let frame = frames.get(locale);
  if (frame === undefined) {
    const html = template.replace(/<html lang="[^"]*"/, () => `<html lang="${locale}"`).replace(/<title>[^<]*<\/title>/, '');
    const headEnd = html.indexOf('</head>');
    const root = APP_ROOT.exec(html);
    frame =
      headEnd >= 0 && root && root.index > headEnd
        ? { head: html.slice(0, headEnd), middle: html.slice(headEnd, root.index), tail: html.slice(root.index + root[0].length) }
        : null;
    frames.set(locale, frame);
  }
  return frame;
}

/**
 * index.html (with its runtime configuration) carrying the verdict: the root holds the markup,
 * the answer is embedded as JSON for the SPA, the language and title are the request's. `head`:
 * the part that is the same for every answer in the language (empty for a template without the
 * expected head and root, whose page is then written whole).
 */
export function verifyPageParts(template: string, content: VerifyPageContent): { head: string; body: string } {
  const t = keptTexts(content.t as unknown as Translate, content.locale);
  const answer = {
    ...presentResult(content.result, (key) => t(key), { explorerTxUrl: content.explorerTxUrl }),
    credential: content.credential as Record<string, unknown> | null,
    diploma_kind: content.kind,
    checked_at: content.checkedAt.toISOString(),
  };
  const data = `<script type="application/json" id="${SERVER_VERDICT_ELEMENT}" data-id="${escapeHtml(content.id)}">${scriptJson(answer)}</script>`;
  const title = `<title>${escapeHtml(`${t(`verification:verdict.${content.result.verdict}`)} — Sceau`)}</title>${STYLE}`;
  const root = `<div id="root" data-ssr="verify">${shell(renderVerifyMarkup(content), t)}</div><!--/root-->${data}`;
  const frame = frameOf(template, content.locale);
  // Joined, never given to String.replace as its replacement: a diploma's text may hold `$&`.
  if (frame) return { head: frame.head, body: `${title}${frame.middle}${root}${frame.tail}` };
  return {
    head: '',
    body: template
      .replace(/<html lang="[^"]*"/, () => `<html lang="${content.locale}"`)
      .replace(/<title>[^<]*<\/title>/, () => title)
      .replace(APP_ROOT, () => root),
  };
}

/** The whole page, as verifyPageParts gives it. */
export function verifyPageHtml(template: string, content: VerifyPageContent): string {
  const { head, body } = verifyPageParts(template, content);
  return head + body;
}

/**
 * `/verify/{id}` and `/view-certificate?id=` answered with their verdict in the HTML (ADR 0128),
 * from the verification service's cached answer, as `GET /api/verify/:id` gives it. An answer not
 * in the cache costs a database read: those are limited per address as the API's are; past the
 * limit, or if verifying fails, the plain page is served and the SPA asks the API (which says why).
 */
export function serverVerdict(config: Config, verification: VerificationService): ServerPage {
  const limiter = new RateLimiterMemory({ keyPrefix: 'verify-page', points: VERIFY_LIMIT_PER_MINUTE, duration: 60 });
  return async (request, pathname, template) => {
    const byPath = pathname.match(/^\/verify\/([^/]+)\/?$/);
    const onCertificate = pathname === '/view-certificate' || pathname === '/view-certificate/';
    const id = byPath ? decodeURIComponent(byPath[1]!) : onCertificate ? (new URLSearchParams(request.url.split('?')[1] ?? '').get('id')?.trim() ?? '') : '';
    if (!id || !DIPLOMA_ID_PATTERN.test(id)) return null;
    try {
      if (!verification.isCached({ diplomaId: id })) await limiter.consume(request.ip);
      const { result, credential, kind } = await verification.verifyById(id);
      const { head, body } = verifyPageParts(template, {
        id,
        result,
        credential,
        kind: kind ?? null,
        locale: request.locale,
        t: request.t,
        explorerTxUrl: config.chain.explorerTxUrl,
        checkedAt: new Date(),
        page: byPath ? 'verify' : 'view-certificate',
      });
      return { status: result.verdict === 'unknown' ? 404 : 200, head, body };
    } catch (error) {
      if (!(error as { msBeforeNext?: number }).msBeforeNext) request.log.warn({ err: error }, 'server-rendered verdict failed: plain page served');
      return null;
    }
  };
}
