// A content-stream builder: PDF drawing operators as text, in points with the origin bottom-left.
import { pdfNumber as n } from './pdf-syntax.ts';

export type Rgb = readonly [number, number, number];

export function parseColor(hexColor: string): Rgb {
  const v = Number.parseInt(hexColor.slice(1), 16);
  return [((v >> 16) & 255) / 255, ((v >> 8) & 255) / 255, (v & 255) / 255];
}

export class ContentBuilder {
  private readonly ops: string[] = [];

  raw(op: string): this {
    this.ops.push(op);
    return this;
  }

  save(): this {
    return this.raw('q');
  }

  restore(): this {
    return this.raw('Q');
  }

  transform(a: number, b: number, c: number, d: number, e: number, f: number): this {
    return this.raw(`${n(a)} ${n(b)} ${n(c)} ${n(d)} ${n(e)} ${n(f)} cm`);
  }

  fillColor(c: Rgb): this {
    return this.raw(`${n(c[0])} ${n(c[1])} ${n(c[2])} rg`);
  }

  strokeColor(c: Rgb): this {
    return this.raw(`${n(c[0])} ${n(c[1])} ${n(c[2])} RG`);
  }

  lineWidth(w: number): this {
    return this.raw(`${n(w)} w`);
  }

  dash(pattern: number[], phase = 0): this {
    return this.raw(`[${pattern.map(n).join(' ')}] ${n(phase)} d`);
  }

  graphicsState(name: string): this {
    return this.raw(`/${name} gs`);
  }

  moveTo(x: number, y: number): this {
    return this.raw(`${n(x)} ${n(y)} m`);
  }

  lineTo(x: number, y: number): this {
    return this.raw(`${n(x)} ${n(y)} l`);
  }

  curveTo(x1: number, y1: number, x2: number, y2: number, x3: number, y3: number): this {
    return this.raw(`${n(x1)} ${n(y1)} ${n(x2)} ${n(y2)} ${n(x3)} ${n(y3)} c`);
  }

  close(): this {
    return this.raw('h');
  }

  rect(x: number, y: number, w: number, h: number): this {
    return this.raw(`${n(x)} ${n(y)} ${n(w)} ${n(h)} re`);
  }

  /** A polyline through points, optionally closed. */
  polyline(points: ReadonlyArray<readonly [number, number]>, closed = false): this {
    const first = points[0];
    if (!first) return this;
    this.moveTo(first[0], first[1]);
    for (let i = 1; i < points.length; i++) {
      const p = points[i]!;
      this.lineTo(p[0], p[1]);
    }
    return closed ? this.close() : this;
  }

  /** Circle approximated by four Bézier arcs. */
  circle(cx: number, cy: number, r: number): this {
    const k = 0.5523 * r;
    return this.moveTo(cx + r, cy)
      .curveTo(cx + r, cy + k, cx + k, cy + r, cx, cy + r)
      .curveTo(cx - k, cy + r, cx - r, cy + k, cx - r, cy)
      .curveTo(cx - r, cy - k, cx - k, cy - r, cx, cy - r)
      .curveTo(cx + k, cy - r, cx + r, cy - k, cx + r, cy)
      .close();
  }

  fill(): this {
    return this.raw('f');
  }

  fillEvenOdd(): this {
    return this.raw('f*');
  }

  stroke(): this {
    return this.raw('S');
  }

  fillStroke(): this {
    return this.raw('B');
  }

  clip(): this {
    return this.raw('W n');
  }

  drawXObject(name: string, x: number, y: number, w: number, h: number): this {
    return this.save().transform(w, 0, 0, h, x, y).raw(`/${name} Do`).restore();
  }

  toString(): string {
    return this.ops.join('\n');
  }
}
