// Vector ornaments of the template background: guilloche border, rosettes, wave bands, the emblem
// and microtext. Repeated motifs are emitted as identical operator strings under different `cm`
// transforms, which Flate compresses to almost nothing: the whole background stays a few KB.
import { ContentBuilder, parseColor } from './content.ts';
import { pdfNumber as n } from './pdf-syntax.ts';
import type { TemplateElement, TextStyle } from './template.ts';

export const MM = 72 / 25.4;

export interface PageGeometry {
  /** Page height in points (to flip the template's top-left y axis). */
  heightPt: number;
}

/** Draws text for ornaments; the renderer supplies it (shaping with the embedded fonts). */
export type DrawText = (builder: ContentBuilder, text: string, xPt: number, yPt: number, style: TextStyle, rotation?: number) => void;
export type MeasureText = (text: string, style: TextStyle) => number;

export interface OrnamentContext extends PageGeometry {
  drawText: DrawText;
  measureText: MeasureText;
  /** Returns the ExtGState resource name for a fill/stroke opacity (registers it). */
  opacityState: (opacity: number) => string;
}

function withOpacity(b: ContentBuilder, ctx: OrnamentContext, opacity: number, draw: () => void): void {
  b.save();
  if (opacity < 1) b.graphicsState(ctx.opacityState(opacity));
  draw();
  b.restore();
}

/** Path operators of one period of `curves` interlaced sine waves, from x=0 to x=period, centred on y=0. */
function wavePeriodPath(period: number, amplitude: number, curves: number): string {
  // A half sine period is close to one cubic Bézier with control points at 0.3642·half and amplitude·1.0.
  const half = period / 2;
  const k = 0.3642 * half;
  const parts: string[] = [];
  for (let j = 0; j < curves; j++) {
    const shift = (period * j) / curves / 2;
    const a = amplitude * (1 - (0.5 * j) / Math.max(1, curves));
    const sign = j % 2 === 0 ? 1 : -1;
    let x = -shift;
    parts.push(`${n(x)} 0 m`);
    for (let s = 0; s < 3; s++) {
      const y = (s % 2 === 0 ? 1 : -1) * a * sign;
      parts.push(`${n(x + k)} ${n(y * 1.27)} ${n(x + half - k)} ${n(y * 1.27)} ${n(x + half)} 0 c`);
      x += half;
    }
  }
  parts.push('S');
  return parts.join(' ');
}

/** A straight band of repeated wave periods from (x,y) along the local x axis, rotated by `angle`. */
function waveBand(b: ContentBuilder, x: number, y: number, length: number, angle: number, nominalPeriod: number, amplitude: number, curves: number): void {
  const count = Math.max(1, Math.round(length / nominalPeriod));
  const period = length / count;
  const cell = wavePeriodPath(period, amplitude, curves);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  b.save();
  // Clip to the band so the shifted curves stop at its ends.
  b.transform(cos, sin, -sin, cos, x, y);
  b.rect(0, -amplitude * 1.6, length, amplitude * 3.2).clip();
  for (let i = 0; i < count; i++) b.raw(`q 1 0 0 1 ${n(i * period)} 0 cm ${cell} Q`);
  b.restore();
}

/**
 * One symmetric piece of a hypotrochoid with `lobes`-fold symmetry; drawn `lobes` times rotated.
 * R/r = lobes/(lobes-1) gives a closed star-like loop curve.
 */
function rosettePiecePath(radius: number, lobes: number, d: number, phase: number): string {
  const q = lobes - 1;
  const R = radius;
  const r = (R * q) / lobes;
  const span = (2 * Math.PI * q) / lobes;
  const steps = 18;
  const pts: string[] = [];
  const scale = radius / (R - r + d * r);
  for (let i = 0; i <= steps; i++) {
    const t = (span * i) / steps;
    const x = ((R - r) * Math.cos(t) + d * r * Math.cos(((R - r) / r) * t)) * scale;
    const y = ((R - r) * Math.sin(t) - d * r * Math.sin(((R - r) / r) * t)) * scale;
    const px = x * Math.cos(phase) - y * Math.sin(phase);
    const py = x * Math.sin(phase) + y * Math.cos(phase);
    pts.push(`${n(px)} ${n(py)} ${i === 0 ? 'm' : 'l'}`);
  }
  return `${pts.join(' ')} S`;
}

function rosette(b: ContentBuilder, cx: number, cy: number, radius: number, lobes: number, curves: number): void {
  const pieces: string[] = [];
  for (let j = 0; j < curves; j++) {
    const d = 0.35 + (0.6 * j) / Math.max(1, curves);
    pieces.push(rosettePiecePath(radius * (1 - 0.07 * j), lobes, d, (Math.PI * j) / lobes / curves));
  }
  const piece = pieces.join(' ');
  // The piece spans t ∈ [0, 2π(p-1)/p], which the curve's symmetry maps onto rotations by 2π/p.
  const step = (2 * Math.PI * (lobes - 1)) / lobes;
  for (let i = 0; i < lobes; i++) {
    const a = step * i;
    b.raw(`q ${n(Math.cos(a))} ${n(Math.sin(a))} ${n(-Math.sin(a))} ${n(Math.cos(a))} ${n(cx)} ${n(cy)} cm ${piece} Q`);
  }
}

function star(b: ContentBuilder, cx: number, cy: number, outer: number, inner: number, rotation = -Math.PI / 2): void {
  const pts: Array<[number, number]> = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = rotation + (Math.PI * i) / 5;
    pts.push([cx + r * Math.cos(a), cy - r * Math.sin(a)]);
  }
  b.polyline(pts, true);
}

function emblem(b: ContentBuilder, ctx: OrnamentContext, cx: number, cy: number, size: number, color: string, accent: string, motto: string): void {
  const main = parseColor(color);
  const gold = parseColor(accent);
  const w = size * 0.62;
  const top = cy + size * 0.42;
  const shoulder = cy + size * 0.1;
  const bottom = cy - size * 0.42;
  const shield = (inset: number) => {
    const x0 = cx - w / 2 + inset;
    const x1 = cx + w / 2 - inset;
    const t = top - inset;
    const bt = bottom + inset * 1.4;
    b.moveTo(x0, t).lineTo(x1, t).lineTo(x1, shoulder);
    b.curveTo(x1, shoulder - (shoulder - bt) * 0.55, cx + w * 0.18, bt + size * 0.06, cx, bt);
    b.curveTo(cx - w * 0.18, bt + size * 0.06, x0, shoulder - (shoulder - bt) * 0.55, x0, shoulder);
    b.close();
  };
  b.save();
  // Behind the shield, crossed: a spear (bottom-left to top-right) and an elephant tusk.
  const reach = size * 0.5;
  const spearFrom: [number, number] = [cx - reach, bottom - size * 0.04];
  const spearTo: [number, number] = [cx + reach * 0.92, top + size * 0.02];
  b.strokeColor(gold)
    .lineWidth(size * 0.022)
    .moveTo(...spearFrom)
    .lineTo(...spearTo)
    .stroke();
  const ang = Math.atan2(spearTo[1] - spearFrom[1], spearTo[0] - spearFrom[0]);
  const ux = Math.cos(ang);
  const uy = Math.sin(ang);
  const head = size * 0.16;
  const halfWidth = size * 0.045;
  b.fillColor(gold);
  b.moveTo(spearTo[0] - ux * head * 0.1, spearTo[1] - uy * head * 0.1);
  b.curveTo(
    spearTo[0] - uy * halfWidth,
    spearTo[1] + ux * halfWidth,
    spearTo[0] + ux * head * 0.6 - uy * halfWidth,
    spearTo[1] + uy * head * 0.6 + ux * halfWidth,
    spearTo[0] + ux * head,
    spearTo[1] + uy * head,
  );
  b.curveTo(
    spearTo[0] + ux * head * 0.6 + uy * halfWidth,
    spearTo[1] + uy * head * 0.6 - ux * halfWidth,
    spearTo[0] + uy * halfWidth,
    spearTo[1] - ux * halfWidth,
    spearTo[0] - ux * head * 0.1,
    spearTo[1] - uy * head * 0.1,
  );
  b.fill();
  // Tusk: a tapering crescent from bottom-right to top-left, ivory with a gold outline.
  const t0: [number, number] = [cx + reach, bottom - size * 0.02];
  const t1: [number, number] = [cx - reach * 0.95, top + size * 0.04];
  const thick = size * 0.055;
  b.fillColor(parseColor('#f3ead2'))
    .strokeColor(gold)
    .lineWidth(size * 0.008);
  b.moveTo(t0[0], t0[1] + thick);
  b.curveTo(cx + reach * 0.2, bottom + size * 0.25, cx - reach * 0.4, top - size * 0.05, t1[0], t1[1]);
  b.curveTo(cx - reach * 0.4, top - size * 0.15, cx + reach * 0.2, bottom + size * 0.12, t0[0], t0[1] - thick * 0.2);
  b.close().fillStroke();
  // Gold rim, blue field.
  b.fillColor(gold);
  shield(0);
  b.fill();
  b.fillColor(main);
  shield(size * 0.025);
  b.fill();
  // Diagonal band (red bordered with gold), clipped to the field, like the national flag.
  b.save();
  shield(size * 0.025);
  b.clip();
  const diag = (offset: number, halfWidth: number) => {
    const len = size;
    const ang = Math.atan2(top - bottom, w);
    const ux = Math.cos(ang);
    const uy = Math.sin(ang);
    const px = -uy * halfWidth;
    const py = ux * halfWidth;
    const ox = cx - ux * len + -uy * offset;
    const oy = cy - uy * len + ux * offset;
    b.polyline(
      [
        [ox + px, oy + py],
        [ox + 2 * ux * len + px, oy + 2 * uy * len + py],
        [ox + 2 * ux * len - px, oy + 2 * uy * len - py],
        [ox - px, oy - py],
      ],
      true,
    );
  };
  b.fillColor(gold);
  diag(0, size * 0.1);
  b.fill();
  b.fillColor(parseColor('#b3202a'));
  diag(0, size * 0.072);
  b.fill();
  b.restore();
  // Star in the upper hoist corner.
  b.fillColor(gold);
  star(b, cx - w * 0.2, top - size * 0.2, size * 0.11, size * 0.045);
  b.fill();
  b.restore();
  if (motto) {
    ctx.drawText(b, motto, cx, bottom - size * 0.2, {
      font: 'display',
      size: Math.max(4, size * 0.085),
      color,
      align: 'center',
      letterSpacing: size * 0.008,
    });
  }
}

function microtext(b: ContentBuilder, ctx: OrnamentContext, text: string, inset: number, size: number, color: string, page: { w: number; h: number }): void {
  const style: TextStyle = { font: 'display', size, color, align: 'left', letterSpacing: 0.15 };
  const unit = `${text} · `;
  const unitWidth = ctx.measureText(unit, style);
  const sides: Array<{ x: number; y: number; length: number; angle: number }> = [
    { x: inset, y: page.h - inset, length: page.w - 2 * inset, angle: 0 },
    { x: page.w - inset, y: page.h - inset, length: page.h - 2 * inset, angle: -90 },
    { x: page.w - inset, y: inset, length: page.w - 2 * inset, angle: 180 },
    { x: inset, y: inset, length: page.h - 2 * inset, angle: 90 },
  ];
  for (const side of sides) {
    const count = Math.max(1, Math.floor(side.length / unitWidth));
    const line = unit.repeat(count).replace(/ · $/, '');
    const rad = (side.angle * Math.PI) / 180;
    const offset = (side.length - ctx.measureText(line, style)) / 2;
    // Text sits just inside the side: shift it by its cap height towards the page centre.
    const inward = size * 0.72;
    const ux = Math.cos(rad);
    const uy = Math.sin(rad);
    const x = side.x + ux * offset + uy * inward;
    const y = side.y + uy * offset - ux * inward;
    ctx.drawText(b, line, x, y, style, side.angle);
  }
}

export function drawElement(b: ContentBuilder, ctx: OrnamentContext, element: TemplateElement, pageWidthMm: number, pageHeightMm: number): void {
  const X = (mm: number) => mm * MM;
  const Y = (mm: number) => ctx.heightPt - mm * MM;
  switch (element.type) {
    case 'rect':
      withOpacity(b, ctx, element.opacity, () => {
        b.rect(X(element.x), Y(element.y + element.h), X(element.w), X(element.h));
        if (element.fill) b.fillColor(parseColor(element.fill));
        if (element.stroke) b.strokeColor(parseColor(element.stroke)).lineWidth(element.lineWidth);
        if (element.fill && element.stroke) b.fillStroke();
        else if (element.fill) b.fill();
        else b.stroke();
      });
      return;
    case 'line':
      withOpacity(b, ctx, element.opacity, () => {
        b.strokeColor(parseColor(element.color)).lineWidth(element.lineWidth);
        b.moveTo(X(element.x1), Y(element.y1)).lineTo(X(element.x2), Y(element.y2)).stroke();
      });
      return;
    case 'border': {
      const w = X(pageWidthMm);
      const h = X(pageHeightMm);
      const i = X(element.inset);
      const band = X(element.band);
      const main = parseColor(element.color);
      const accent = parseColor(element.accent);
      b.save();
      b.strokeColor(main)
        .lineWidth(1.4)
        .rect(i, i, w - 2 * i, h - 2 * i)
        .stroke();
      b.lineWidth(0.5)
        .rect(i + 2.2, i + 2.2, w - 2 * i - 4.4, h - 2 * i - 4.4)
        .stroke();
      b.lineWidth(0.8)
        .rect(i + band, i + band, w - 2 * (i + band), h - 2 * (i + band))
        .stroke();
      b.strokeColor(accent)
        .lineWidth(0.4)
        .rect(i + band + 2.2, i + band + 2.2, w - 2 * (i + band + 2.2), h - 2 * (i + band + 2.2))
        .stroke();
      // Waves between the corner squares.
      b.strokeColor(main).lineWidth(0.3);
      const mid = i + band / 2 + 1.1;
      const amp = (band - 4.4) / 2 / 1.6;
      const start = i + band;
      waveBand(b, start, h - mid, w - 2 * start, 0, 14, amp, element.waves);
      waveBand(b, start, mid, w - 2 * start, 0, 14, amp, element.waves);
      waveBand(b, mid, start, h - 2 * start, Math.PI / 2, 14, amp, element.waves);
      waveBand(b, w - mid, start, h - 2 * start, Math.PI / 2, 14, amp, element.waves);
      // Corner squares with small rosettes.
      for (const [cx, cy] of [
        [mid, mid],
        [w - mid, mid],
        [mid, h - mid],
        [w - mid, h - mid],
      ] as const) {
        b.strokeColor(main)
          .lineWidth(0.6)
          .rect(cx - band / 2 + 1.1, cy - band / 2 + 1.1, band - 2.2, band - 2.2)
          .stroke();
        b.strokeColor(accent).lineWidth(0.25);
        rosette(b, cx, cy, band / 2 - 2, 12, 3);
      }
      b.restore();
      return;
    }
    case 'rosette':
      withOpacity(b, ctx, element.opacity, () => {
        b.strokeColor(parseColor(element.color)).lineWidth(element.lineWidth);
        rosette(b, X(element.cx), Y(element.cy), X(element.radius), element.lobes, element.curves);
      });
      return;
    case 'waves':
      withOpacity(b, ctx, element.opacity, () => {
        b.strokeColor(parseColor(element.color)).lineWidth(element.lineWidth);
        const period = X(element.w) / element.periods;
        waveBand(b, X(element.x), Y(element.y + element.h / 2), X(element.w), 0, period, X(element.h) / 3.2, element.curves);
      });
      return;
    case 'emblem':
      emblem(b, ctx, X(element.cx), Y(element.cy), X(element.size), element.color, element.accent, element.motto);
      return;
    case 'microtext':
      microtext(b, ctx, element.text, X(element.inset), element.size, element.color, { w: X(pageWidthMm), h: X(pageHeightMm) });
      return;
    case 'text':
      ctx.drawText(b, element.text, X(element.x), Y(element.y), element.style);
      return;
  }
}
