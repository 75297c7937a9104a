import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipAfterPrefix, gzipPrefix } from './gzip-after-prefix.ts';

describe('gzip after a prefix compressed once', () => {
  const head = `<!doctype html><html lang="fr"><head><style>${'.a{color:red} .b{margin:0 auto} '.repeat(900)}</style>`;

  it('gives one gzip member that any decoder reads as the whole text, CRC and length checked', () => {
    const prefix = gzipPrefix(head);
    for (const rest of ['', '</head><body>é ü 日本 🎓</body></html>', `<title>x</title>${'<p>repeated words, repeated words</p>'.repeat(500)}`]) {
      const gz = gzipAfterPrefix(prefix, rest);
      // Node's zlib checks the trailer's CRC-32 and length; gzip(1) is a decoder written apart.
      expect(gunzipSync(gz).toString('utf8')).toBe(head + rest);
      expect(execFileSync('gzip', ['-dc'], { input: gz }).toString('utf8')).toBe(head + rest);
    }
  });

  it('reads back texts past 64 KB on either side, incompressible parts included', () => {
    const bigHead = head + randomBytes(70_000).toString('base64');
    const rest = randomBytes(80_000).toString('hex') + 'fin'.repeat(30_000);
    expect(gunzipSync(gzipAfterPrefix(gzipPrefix(bigHead), rest)).toString('utf8')).toBe(bigHead + rest);
  });

  it('compresses the head once: an answer costs its own part, and weighs about what gzip of the whole does', () => {
    const prefix = gzipPrefix(head);
    const rest = `<title>Authentique</title><main>${'<p>Jean Kabeya, Diplôme d’État 2026</p>'.repeat(40)}</main>`;
    const spliced = gzipAfterPrefix(prefix, rest);
    expect(spliced.subarray(10, 10 + prefix.blocks.length).equals(prefix.blocks)).toBe(true);
    const whole = execFileSync('gzip', ['-6', '-c'], { input: head + rest });
    expect(spliced.length).toBeLessThan(whole.length * 1.1);
  });

  it("writes the whole text's CRC in the trailer: a changed trailer byte fails to decode", () => {
    const gz = gzipAfterPrefix(gzipPrefix(head), '<p>fin</p>');
    const broken = Buffer.from(gz);
    broken[broken.length - 8]! ^= 0xff;
    expect(() => gunzipSync(broken)).toThrow();
  });
});
