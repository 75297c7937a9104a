/**
 * A small schematic of a template, drawn from its design (packages/pdf's page model): the page and
 * its paper, the border's colours, the title in its colour, the photo, the signatures and the QR
 * code as boxes. No image is loaded: the real rendering is the diploma itself.
 */

type Design = Record<string, unknown>;

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Schematic {
  width: number;
  height: number;
  paper: string;
  border: { inset: number; band: number; color: string; accent: string } | null;
  /** `size` and `spacing` in millimetres, as the diploma prints them (the design gives points). */
  title: { text: string; x: number; y: number; size: number; spacing: number; color: string; align: 'left' | 'center' | 'right' } | null;
  photo: Box | null;
  signatures: Box[];
  qr: Box[];
  frame: string;
}

const COLOUR = /^#[0-9a-fA-F]{6}$/;
/** Millimetres in a typographic point: the design's font sizes are points, its positions millimetres. */
const MM_PER_POINT = 25.4 / 72;

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function colour(value: unknown, fallback: string): string {
  return typeof value === 'string' && COLOUR.test(value) ? value : fallback;
}

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function box(value: unknown): Box | null {
  const r = record(value);
  if (!r) return null;
  const w = num(r.w, 0);
  const h = num(r.h ?? r.size, 0);
  if (w <= 0 && num(r.size, 0) <= 0) return null;
  return { x: num(r.x, 0), y: num(r.y, 0), w: w || num(r.size, 0), h: h || num(r.size, 0) };
}

/** What the preview draws; anything missing or malformed is left out. */
export function schematicOf(design: Design): Schematic {
  const page = record(design.page) ?? {};
  const width = num(page.width, 297);
  const height = num(page.height, 210);
  const background = Array.isArray(design.background) ? design.background.map(record).filter((x): x is Record<string, unknown> => x !== null) : [];
  const borderEl = background.find((el) => el.type === 'border');
  const texts = background.filter((el) => el.type === 'text' && typeof el.text === 'string' && record(el.style));
  const biggest = texts.reduce<Record<string, unknown> | null>((best, el) => (num(record(el.style)!.size, 0) > num(best ? record(best.style)!.size : 0, 0) ? el : best), null);
  const style = biggest ? record(biggest.style)! : null;
  const photo = box(design.photo);
  const signatures = Array.isArray(design.signatures) ? design.signatures.map(box).filter((b): b is Box => b !== null) : [];
  // `qr` is one box, or several (`verify`, `offline`) each with a size.
  const qrRaw = record(design.qr);
  const qrBoxes = qrRaw ? (typeof qrRaw.size === 'number' ? [qrRaw] : Object.values(qrRaw).map(record)) : [];
  const qr = qrBoxes
    .filter((q): q is Record<string, unknown> => q !== null && num(q.size, 0) > 0)
    .map((q) => ({ x: num(q.x, 0), y: num(q.y, 0), w: num(q.size, 0), h: num(q.size, 0) }));
  return {
    width,
    height,
    paper: colour(page.paper, '#ffffff'),
    border: borderEl ? { inset: num(borderEl.inset, 7), band: num(borderEl.band, 6), color: colour(borderEl.color, '#1d3461'), accent: colour(borderEl.accent, '#b08a36') } : null,
    title:
      biggest && style
        ? {
            text: String(biggest.text),
            x: num(biggest.x, width / 2),
            y: num(biggest.y, height / 3),
            size: num(style.size, 24) * MM_PER_POINT,
            spacing: num(style.letterSpacing, 0) * MM_PER_POINT,
            color: colour(style.color, '#1b1b1b'),
            align: style.align === 'left' || style.align === 'right' ? style.align : 'center',
          }
        : null,
    photo,
    signatures,
    qr,
    frame: colour(record(design.photo)?.frame, '#8792a2'),
  };
}

/** The schematic as an SVG with a text alternative. */
export function TemplatePreview({ design, label, testId }: { design: Design; label: string; testId?: string }) {
  const s = schematicOf(design);
  const anchor = s.title?.align === 'left' ? 'start' : s.title?.align === 'right' ? 'end' : 'middle';
  const ink = s.title?.color ?? s.border?.color ?? '#1d3461';
  return (
    <svg
      className="template-preview"
      viewBox={`0 0 ${s.width} ${s.height}`}
      role="img"
      aria-label={label}
      data-testid={testId}
      data-title-colour={s.title?.color}
      data-border-colour={s.border?.color}
      preserveAspectRatio="xMidYMid meet"
    >
      <rect x={0} y={0} width={s.width} height={s.height} fill={s.paper} stroke="#c9ced6" strokeWidth={0.8} />
      {s.border ? (
        <>
          <rect
            x={s.border.inset}
            y={s.border.inset}
            width={s.width - 2 * s.border.inset}
            height={s.height - 2 * s.border.inset}
            fill="none"
            stroke={s.border.color}
            strokeWidth={2}
          />
          <rect
            x={s.border.inset + s.border.band}
            y={s.border.inset + s.border.band}
            width={s.width - 2 * (s.border.inset + s.border.band)}
            height={s.height - 2 * (s.border.inset + s.border.band)}
            fill="none"
            stroke={s.border.accent}
            strokeWidth={1.2}
          />
        </>
      ) : null}
      {s.title ? (
        <text x={s.title.x} y={s.title.y} fill={s.title.color} textAnchor={anchor} fontSize={s.title.size} letterSpacing={s.title.spacing} fontWeight={700} fontFamily="serif">
          {s.title.text}
        </text>
      ) : null}
      {/* Lines standing for the candidate's texts. */}
      {[0, 1, 2, 3].map((line) => (
        <rect
          key={line}
          x={s.width * (0.3 + line * 0.02)}
          y={s.height * (0.46 + line * 0.07)}
          width={s.width * (0.4 - line * 0.04)}
          height={2.4}
          rx={1.2}
          fill={line === 0 ? ink : '#9aa3b2'}
        />
      ))}
      {s.photo ? <rect x={s.photo.x} y={s.photo.y} width={s.photo.w} height={s.photo.h} fill="#e8ebf0" stroke={s.frame} strokeWidth={1} /> : null}
      {s.signatures.map((sig, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the template's fixed list of places; it never reorders.
        <line key={index} x1={sig.x} y1={sig.y + sig.h} x2={sig.x + sig.w} y2={sig.y + sig.h} stroke={ink} strokeWidth={0.8} />
      ))}
      {s.qr.map((q, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the template's fixed list of places; it never reorders.
        <rect key={index} x={q.x} y={q.y} width={q.w} height={q.h} fill="none" stroke="#1b1b1b" strokeWidth={0.8} strokeDasharray="2 1.5" />
      ))}
    </svg>
  );
}
