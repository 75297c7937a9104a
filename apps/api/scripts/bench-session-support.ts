// Helpers of bench-session.ts: synthetic candidate lists and photo zips, the memory of a process
// tree, machine CPU, folder sizes.
import ExcelJS from 'exceljs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import yazl from 'yazl';

const LAST = ['Ngalula', 'Mukendi', 'Mbuyamba', 'Ilunga', 'Nsimba', 'Kasongo', 'Mwamba', 'Lukusa', 'Nzuzi', 'Kabila', 'Tshala', 'Mbala', 'Lokwa', 'Bofaya', "N'Sele"];
const MIDDLE = ['Kabamba', 'Tshibangu', 'Tshilombo', 'wa Kalombo', 'Luzolo', 'Banza', 'Ngoy', 'Kanku', 'Makiese', 'Mulumba', 'Mpoyi', 'Nkiambi', ''];
const FIRST = ['Élodie', 'Patrick', 'Marie-Élodie', 'Joseph', 'Grâce', 'Héritier', 'Bénédicte', 'Daniel', 'Thérèse', 'Aimé', 'Rebecca', 'Noëlla', 'Gaël', 'Anaïs', 'Josué', 'Françoise'];
const PLACES = ['Kinshasa', 'Mbuji-Mayi', 'Kananga', 'Lubumbashi', 'Matadi', 'Kindu', 'Kolwezi', 'Tshikapa', 'Kikwit', 'Kisangani', 'Boma', 'Bandundu'];
const OPTIONS = ['LIT', 'SA', 'ELE', 'CON'];
const HEADERS = ['code_candidat', 'nom', 'postnom', 'prenom', 'date_naissance', 'lieu_naissance', 'sexe', 'option', 'ecole', 'centre', 'pourcentage', 'photo'];

/** A candidate code of the bench: 2026, then 9, then the candidate's index (never a demo code). */
export const benchCode = (index: number) => `20269${String(index).padStart(9, '0')}`;

function row(index: number): string[] {
  const code = benchCode(index);
  return [
    code,
    LAST[index % LAST.length]!,
    MIDDLE[(index * 7) % MIDDLE.length]!,
    FIRST[(index * 5) % FIRST.length]!,
    `${String(1 + (index % 28)).padStart(2, '0')}/${String(1 + (index % 12)).padStart(2, '0')}/${2005 + (index % 3)}`,
    PLACES[(index * 3) % PLACES.length]!,
    index % 2 ? 'M' : 'F',
    OPTIONS[index % OPTIONS.length]!,
    'KIN-FUN-C1-E1',
    'KIN-FUN-C1',
    `${50 + ((index * 37) % 450) / 10}`.replace('.', ','),
    `${code}.jpg`,
  ];
}

/** A school's list as it is sent: CSV (UTF-8 with BOM, `;`) or XLSX, candidates `from` to `to - 1`. */
export async function candidateList(from: number, to: number, format: 'csv' | 'xlsx'): Promise<Buffer> {
  if (format === 'xlsx') {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Candidats');
    sheet.addRow(HEADERS);
    for (let i = from; i < to; i++) sheet.addRow(row(i));
    sheet.getColumn(1).numFmt = '@';
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }
  const quote = (v: string) => (/[;"\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  const lines = [HEADERS.join(';')];
  for (let i = from; i < to; i++) lines.push(row(i).map(quote).join(';'));
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8')]);
}

/**
 * Portraits textured like real photos (a gradient, a silhouette, sensor noise), `width` × `height`,
 * baseline JPEG at quality 80, as a school's camera or scanner exports them; 64 of them, reused.
 */
export async function portraits(width: number, height: number, count = 64): Promise<Buffer[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const hue = (i * 37) % 360;
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 300 400" preserveAspectRatio="none"><defs><radialGradient id="g"><stop offset="0" stop-color="hsl(${hue},30%,88%)"/><stop offset="1" stop-color="hsl(${hue},35%,65%)"/></radialGradient></defs><rect width="300" height="400" fill="url(#g)"/><circle cx="150" cy="150" r="72" fill="hsl(${(hue + 20) % 360},25%,35%)"/><path d="M30 400 C 40 270, 260 270, 270 400 Z" fill="hsl(${hue},25%,30%)"/></svg>`;
      const noise = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 10 } } }).png().toBuffer();
      return sharp(Buffer.from(svg)).composite([{ input: noise, blend: 'soft-light' }]).jpeg({ quality: 80 }).toBuffer();
    }),
  );
}

/** The zip of photos that goes with a list: `<code>.jpg`, stored (JPEGs do not compress). */
export async function photoZip(from: number, to: number, photos: Buffer[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (let i = from; i < to; i++) zip.addBuffer(photos[i % photos.length]!, `${benchCode(i)}.jpg`, { compress: false });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Memory of a process and all its descendants (render threads are in the process; the embedded
 * PostgreSQL and Anvil are children): the sum of their proportional set sizes (PSS, so shared
 * memory such as PostgreSQL's buffers is counted once), in bytes. Linux only; null elsewhere.
 */
export async function treeMemory(rootPid: number): Promise<{ bytes: number; processes: number } | null> {
  let entries: string[];
  try {
    entries = (await readdir('/proc')).filter((e) => /^\d+$/.test(e));
  } catch {
    return null;
  }
  const parent = new Map<number, number>();
  await Promise.all(
    entries.map(async (e) => {
      try {
        const text = await readFile(`/proc/${e}/stat`, 'utf8');
        // pid (comm) state ppid …: comm may hold spaces or parentheses, so read after the last ")".
        const ppid = Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);
        parent.set(Number(e), ppid);
      } catch {
        // gone meanwhile
      }
    }),
  );
  const tree = [...parent.keys()].filter((pid) => {
    for (let p: number | undefined = pid, hops = 0; p && hops < 64; p = parent.get(p), hops++) if (p === rootPid) return true;
    return false;
  });
  let bytes = 0;
  for (const pid of tree) {
    try {
      const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8');
      const pss = /^Pss:\s+(\d+) kB/m.exec(rollup);
      if (pss) bytes += Number(pss[1]) * 1024;
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return { bytes, processes: tree.length };
}

/** Whole-machine CPU time (every process), from /proc/stat. */
export async function machineCpu(): Promise<{ busy: number; total: number } | null> {
  try {
    const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!;
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = v[3]! + (v[4] ?? 0);
    const total = v.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

export async function machineBusySince(from: { busy: number; total: number } | null): Promise<number | null> {
  const to = await machineCpu();
  if (!from || !to || to.total === from.total) return null;
  return Math.round((100 * (to.busy - from.busy)) / (to.total - from.total));
}

/** Bytes of the files under a folder, by first-level sub-folder. */
export async function folderSizes(root: string): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  async function walk(dir: string, top: string | null): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      const key = top ?? e.name;
      if (e.isDirectory()) await walk(full, key);
      else if (e.isFile()) sizes[key] = (sizes[key] ?? 0) + (await stat(full)).size;
    }
  }
  await walk(root, null);
  return sizes;
}

/** Total length of the union of time intervals (ms): how long at least one batch was in a stage. */
export function unionMs(intervals: Array<[number, number]>): number {
  const sorted = intervals.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of sorted) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total;
}
