/**
 * Hostile PDFs for tests of the parsing limits (ADR 0114), built as bytes: nothing here is valid
 * beyond what pdf-lib needs to start parsing.
 */
import { deflateSync } from 'node:zlib';

function assemble(body: (add: (part: string | Uint8Array) => void) => void, size: number): Buffer {
  const parts: Buffer[] = [];
  const add = (part: string | Uint8Array) => parts.push(typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part));
  add('%PDF-1.7\n');
  body(add);
  add(`trailer\n<< /Root 1 0 R /Size ${size} >>\nstartxref\n0\n%%EOF\n`);
  return Buffer.concat(parts);
}

/**
 * `total` tiny objects (`0`) in deflated object streams of `perStream` each: a million fit in about
 * 4.3 MB, and pdf-lib parses every one of them when it loads the document.
 */
export function pdfWithObjects(total: number, perStream = 100_000): Buffer {
  let next = 10;
  return assemble((add) => {
    add('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n');
    let stream = 3;
    for (let made = 0; made < total; made += perStream) {
      const n = Math.min(perStream, total - made);
      const header: string[] = [];
      for (let i = 0; i < n; i++) header.push(`${next + i} ${i * 2}`);
      const head = `${header.join(' ')}\n`;
      const data = deflateSync(Buffer.from(head + '0 '.repeat(n), 'latin1'), { level: 9 });
      add(`${stream++} 0 obj\n<< /Type /ObjStm /N ${n} /First ${head.length} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`);
      add(data);
      add('\nendstream\nendobj\n');
      next += n;
    }
    // The trailer's /Size left small, as an attacker would: pdf-lib does not need it.
  }, 3);
}

/** One page whose content stream inflates to `bytes` of spaces (a deflate bomb: ~1,000 to 1). */
export function pdfWithInflatingContents(bytes: number): Buffer {
  const data = deflateSync(Buffer.alloc(bytes, 0x20), { level: 9 });
  return assemble((add) => {
    add('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n');
    add('2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n');
    add('3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Contents 4 0 R >>\nendobj\n');
    add(`4 0 obj\n<< /Filter /FlateDecode /Length ${data.length} >>\nstream\n`);
    add(data);
    add('\nendstream\nendobj\n');
  }, 5);
}
