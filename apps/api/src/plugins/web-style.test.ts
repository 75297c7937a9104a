import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withInlineStyle } from './web.ts';

let dist: string;
const preload = '<link rel="preload" as="style" crossorigin href="/assets/index-1a2b.css" data-app-style>';

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'sceau-web-style-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'assets', 'index-1a2b.css'), '.verdict{color:green}');
});
afterAll(async () => {
  await rm(dist, { recursive: true, force: true });
});

describe('the stylesheet of the pages the server writes (ADR 0131)', () => {
  it("writes the build's preloaded stylesheet inline, so the verdict needs no second request to be drawn", () => {
    const html = withInlineStyle(`<head><title>t</title>${preload}</head><body></body>`, dist);
    expect(html).toBe('<head><title>t</title><style data-app-style>.verdict{color:green}</style></head><body></body>');
  });

  it('leaves the page alone when the file is missing or the link is not the preload the build writes', () => {
    const missing = preload.replace('index-1a2b', 'index-ffff');
    expect(withInlineStyle(missing, dist)).toBe(missing);
    const outside = '<link rel="preload" as="style" href="/assets/../../etc/passwd.css" data-app-style>';
    expect(withInlineStyle(outside, dist)).toBe(outside);
    const plain = '<link rel="stylesheet" href="/assets/index-1a2b.css">';
    expect(withInlineStyle(plain, dist)).toBe(plain);
  });
});
