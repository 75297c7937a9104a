import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { createDeflateRaw, crc32 } from 'node:zlib';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generations } from '../../db/schema.ts';
import { bearer, createImportTest, csv, csvFile, multipart, row, xlsx, zip, type ImportTest, type UploadFile } from './imports-test-support.ts';
import { readTable, UnreadableTable } from './table-reader.ts';
import { openZip } from './zip-archive.ts';
import { checkZipLimits, ZipLimitExceeded } from './zip-limits.ts';

// ADR 0114: zips are capped on the bytes they really inflate to, not on what their headers say.

const MB = 1024 * 1024;

/** `megabytes` MB of zeros deflated, streamed (never held whole), with their CRC-32. */
async function deflatedZeros(megabytes: number): Promise<{ data: Buffer; crc: number; size: number }> {
  const deflater = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflater.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => deflater.on('end', resolve));
  const zeros = Buffer.alloc(MB);
  let crc = 0;
  for (let i = 0; i < megabytes; i++) {
    crc = crc32(zeros, crc);
    if (!deflater.write(zeros)) await new Promise((resolve) => deflater.once('drain', resolve));
  }
  deflater.end();
  await done;
  return { data: Buffer.concat(chunks), crc, size: megabytes * MB };
}

interface RawEntry {
  name: string;
  data: Buffer;
  crc: number;
  /** What the headers say the entry inflates to. */
  statedSize: number;
  method: 0 | 8;
}

/** A zip written by hand: local headers, data, central directory and its end, sizes as given. */
function handMadeZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(0, 10); // time and date
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.statedSize, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, e.data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(e.crc >>> 0, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.statedSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** An XLSX-looking zip whose sheet states 1 KB and inflates to `megabytes` MB of zeros. */
async function lyingXlsx(megabytes: number): Promise<Buffer> {
  const zeros = await deflatedZeros(megabytes);
  const types = Buffer.from('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
  return handMadeZip([
    { name: '[Content_Types].xml', data: types, crc: crc32(types), statedSize: types.length, method: 0 },
    { name: 'xl/worksheets/sheet1.xml', data: zeros.data, crc: zeros.crc, statedSize: 1024, method: 8 },
  ]);
}

let t: ImportTest;
let admin: Record<string, string>;
let bomb: Buffer;

beforeAll(async () => {
  t = await createImportTest();
  admin = await bearer(t, 'admin@sceau.example');
  bomb = await lyingXlsx(200);
}, 60_000);
afterAll(() => t.close());

async function check(files: UploadFile[], locale: 'fr' | 'en' = 'fr') {
  const body = multipart({ template: t.templateId, generation_type: 'diplome_etat', session_id: t.sessionId, province_id: t.provinceId }, files);
  return t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...admin, ...body.headers, 'x-locale': locale }, payload: body.payload });
}

/** Drafts and stored import files: a refused upload must leave neither. */
async function leftBehind(): Promise<{ drafts: number; files: number }> {
  const [{ n }] = (await t.ctx.db.select({ n: count() }).from(generations)) as [{ n: number }];
  const folder = path.join(t.ctx.config.filesDir, 'imports');
  const files = await readdir(folder, { recursive: true }).catch(() => []);
  return { drafts: n, files: files.length };
}

/** Runs `work` while sampling the process's RSS: its largest growth in MB, and the time taken. */
async function measured<T>(work: () => Promise<T>): Promise<{ outcome: T; rssGrowthMb: number; ms: number }> {
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  try {
    const outcome = await work();
    return { outcome, rssGrowthMb: (peak - rss0) / MB, ms: performance.now() - started };
  } finally {
    clearInterval(sampler);
  }
}

describe('zip caps counted on inflated bytes', () => {
  it('the hand-made bomb: 200 MB of zeros stated as 1 KB, in a few hundred KB', () => {
    expect(bomb.length).toBeLessThan(MB);
    expect(bomb.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  });

  it('stops at the per-entry, total and entry-count caps; a zip within them passes', async () => {
    const limits = { maxEntries: 3, maxEntryBytes: 1_000, maxTotalBytes: 1_500 };
    const of = (n: number) => Buffer.alloc(n, 0x61);
    await expect(checkZipLimits(await zip({ 'a.txt': of(900), 'b.txt': of(500) }), limits)).resolves.toMatchObject({ entries: 2, inflatedBytes: 1_400 });
    await expect(checkZipLimits(await zip({ 'a.txt': of(1_001) }), limits)).rejects.toMatchObject({ limit: 'entry_bytes' });
    await expect(checkZipLimits(await zip({ 'a.txt': of(900), 'b.txt': of(900) }), limits)).rejects.toMatchObject({ limit: 'total_bytes' });
    await expect(checkZipLimits(await zip({ a: of(1), b: of(1), c: of(1), d: of(1) }), limits)).rejects.toMatchObject({ limit: 'entries' });
  });

  it('the bomb stops at the entry cap, not at its stated size, in bounded time and memory', async () => {
    const { outcome, rssGrowthMb, ms } = await measured(() =>
      checkZipLimits(bomb, { maxEntries: 10, maxEntryBytes: 64 * MB, maxTotalBytes: 100 * MB }).catch((error: Error) => error),
    );
    expect(outcome).toBeInstanceOf(ZipLimitExceeded);
    expect((outcome as ZipLimitExceeded).limit).toBe('entry_bytes');
    expect(ms).toBeLessThan(20_000);
    expect(rssGrowthMb).toBeLessThan(150);
    // The readers refuse it on their own too (a stored file, the results import).
    await expect(readTable(bomb, new Set())).rejects.toMatchObject({ reason: 'file_too_large_uncompressed' } satisfies Partial<UnreadableTable>);
    const archive = await openZip(bomb, { maxEntries: 10, maxEntryBytes: 10 * MB, maxTotalBytes: 100 * MB });
    try {
      await expect(archive.read(archive.files.get('sheet1.xml')!)).rejects.toBeInstanceOf(Error);
    } finally {
      archive.close();
    }
  }, 60_000);
});

describe('an import upload past the caps', () => {
  it('an XLSX list that inflates far past what its headers say: 413, translated, bounded, nothing left behind', async () => {
    const before = await leftBehind();
    const {
      outcome: fr,
      rssGrowthMb,
      ms,
    } = await measured(() => check([{ name: 'file', filename: 'liste.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', data: bomb }]));
    expect(fr.statusCode).toBe(413);
    expect(fr.json().errors.file).toEqual(['Un fichier de ce zip dépasse 64 Mo une fois décompressé : il ne peut pas être lu']);
    // Before ADR 0114: exceljs inflated it all (0.5 → 2.2 GB for such a file). Generous bounds.
    expect(ms).toBeLessThan(20_000);
    expect(rssGrowthMb).toBeLessThan(300);
    const en = await check([{ name: 'file', filename: 'liste.xlsx', type: 'application/octet-stream', data: bomb }], 'en');
    expect(en.statusCode).toBe(413);
    expect(en.json().errors.file).toEqual(['A file inside this zip exceeds 64 MB once uncompressed: it cannot be read']);
    expect(await leftBehind()).toEqual(before);
  }, 60_000);

  it('a photos zip with the same lie, or with too many files: 413 on the photos field, nothing left behind', async () => {
    const before = await leftBehind();
    const list = csvFile(csv([row('20260000700001')]));
    const zeros = await deflatedZeros(40);
    const lying = handMadeZip([{ name: '20260000700001.jpg', data: zeros.data, crc: zeros.crc, statedSize: 2048, method: 8 }]);
    const photos = (data: Buffer): UploadFile => ({ name: 'photos', filename: 'photos.zip', type: 'application/zip', data });
    const res = await check([list, photos(lying)], 'en');
    expect(res.statusCode).toBe(413);
    expect(res.json().errors.photos).toEqual(['A file inside this zip exceeds 32 MB once uncompressed: it cannot be read']);

    const empty = Buffer.alloc(0);
    const many = handMadeZip(Array.from({ length: 50_001 }, (_, i) => ({ name: `${i}.jpg`, data: empty, crc: 0, statedSize: 0, method: 0 as const })));
    expect(many.length).toBeLessThan(10 * MB);
    const crowded = await check([list, photos(many)]);
    expect(crowded.statusCode).toBe(413);
    expect(crowded.json().errors.photos).toEqual(['Ce zip contient plus de 50000 fichiers : il ne peut pas être lu']);
    expect(await leftBehind()).toEqual(before);
  }, 60_000);

  it('an ordinary XLSX list is still read (checked once, not inflated twice)', async () => {
    const res = await check([{ name: 'file', filename: 'l.xlsx', type: 'application/vnd.ms-excel', data: await xlsx([row('20260000700002')]) }]);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ rows: 1, format: 'xlsx' });
  });
});
