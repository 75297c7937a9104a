// Helpers of bench-session.ts: synthetic candidate lists and photo zips, the memory of a process
// tree, machine CPU, folder sizes.
import ExcelJS from 'exceljs';
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import yazl from 'yazl';

const LAST = ['Ngalula', 'Mukendi', 'Mbuyamba', 'Ilunga', 'Nsimba', 'Kasongo', 'Mwamba', 'Lukusa', 'Nzuzi', 'Kabila', 'Tshala', 'Mbala', 'Lokwa', 'Bofaya', "N'Sele"];
const MIDDLE = ['Kabamba', 'Tshibangu', 'Tshilombo', 'wa Kalombo', 'Luzolo', 'Banza', 'Ngoy', 'Kanku', 'Makiese', 'Mulumba', 'Mpoyi', 'Nkiambi', ''];
const FIRST = [
  'Élodie',
  'Patrick',
  'Marie-Élodie',
  'Joseph',
  'Grâce',
  'Héritier',
  'Bénédicte',
  'Daniel',
  'Thérèse',
  'Aimé',
  'Rebecca',
  'Noëlla',
  'Gaël',
  'Anaïs',
  'Josué',
  'Françoise',
];
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
      const noise = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 10 } } })
        .png()
        .toBuffer();
      return sharp(Buffer.from(svg))
        .composite([{ input: noise, blend: 'soft-light' }])
        .jpeg({ quality: 80 })
        .toBuffer();
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
 * A process's descendants, from each thread's `children` list (Linux ≥ 3.5): only this tree is read,
 * not every process of the machine (a busy shared machine has hundreds; reading all of them four
 * times a second cost the bench's own event loop seconds of CPU).
 */
async function descendants(rootPid: number): Promise<number[]> {
  const found: number[] = [];
  const visit = async (pid: number, depth: number): Promise<void> => {
    if (depth > 16) return;
    let tasks: string[];
    try {
      tasks = await readdir(`/proc/${pid}/task`);
    } catch {
      return;
    }
    const children = new Set<number>();
    for (const task of tasks) {
      try {
        for (const c of (await readFile(`/proc/${pid}/task/${task}/children`, 'utf8')).split(' ')) if (c.trim()) children.add(Number(c));
      } catch {
        // thread gone meanwhile
      }
    }
    for (const child of children) {
      found.push(child);
      await visit(child, depth + 1);
    }
  };
  await visit(rootPid, 0);
  return found;
}

/**
 * Memory of a process and all its descendants (render threads are in the process; the embedded
 * PostgreSQL and Anvil are children): the sum of their proportional set sizes (PSS, so shared
 * memory such as PostgreSQL's buffers is counted once), in bytes. Linux only; null elsewhere.
 */
export async function treeMemory(rootPid: number): Promise<{ bytes: number; processes: number } | null> {
  let tree: number[];
  try {
    await readdir(`/proc/${rootPid}/task`);
    tree = [rootPid, ...(await descendants(rootPid))];
  } catch {
    return null;
  }
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

/** Bytes of the files under a folder, by first-level sub-folder. */
export async function folderSizes(root: string): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  async function walk(dir: string, top: string | null): Promise<void> {
    let entries: Dirent[];
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

/** CPU time (ms) of a process tree, split by who spent it. */
export interface TreeCpu {
  /** This process's main thread (the event loop: services, queries, messages, file calls). */
  main: number;
  /** This process's other threads: render threads, libuv's pool (file I/O, zlib, crypto), V8's helpers. */
  threads: number;
  /** PostgreSQL's processes (the embedded server and its backends; an external server is not counted). */
  postgres: number;
  /** Everything else below this process (Anvil, …). */
  other: number;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux.

/** utime + stime (+ the reaped children's, so that exited backends still count), in ms. */
function statCpu(text: string, withChildren: boolean): { ms: number; ppid: number; name: string } {
  const close = text.lastIndexOf(')');
  const name = text.slice(text.indexOf('(') + 1, close);
  const f = text.slice(close + 2).split(' ');
  // Fields after the name start at state (3): ppid is 4, utime 14, stime 15, cutime 16, cstime 17.
  const ticks = Number(f[11]) + Number(f[12]) + (withChildren ? Number(f[13]) + Number(f[14]) : 0);
  return { ms: ticks * TICK_MS, ppid: Number(f[1]), name };
}

/**
 * CPU time spent so far by a process, its threads and its descendants (Linux /proc; null elsewhere).
 * The difference of two readings is what a stage cost, whatever else the machine was doing: the
 * figure to compare between runs on a shared, busy machine, where wall time is not.
 */
export async function treeCpu(rootPid: number): Promise<TreeCpu | null> {
  const result: TreeCpu = { main: 0, threads: 0, postgres: 0, other: 0 };
  try {
    const self = statCpu(await readFile(`/proc/${rootPid}/stat`, 'utf8'), false);
    const main = statCpu(await readFile(`/proc/${rootPid}/task/${rootPid}/stat`, 'utf8'), false);
    result.main = main.ms;
    result.threads = self.ms - main.ms;
  } catch {
    return null;
  }
  for (const pid of await descendants(rootPid)) {
    try {
      const s = statCpu(await readFile(`/proc/${pid}/stat`, 'utf8'), true);
      if (s.name.startsWith('postgres')) result.postgres += s.ms;
      else result.other += s.ms;
    } catch {
      // gone meanwhile
    }
  }
  return result;
}

export function cpuSince(from: TreeCpu, to: TreeCpu): TreeCpu & { total: number } {
  const d = { main: to.main - from.main, threads: to.threads - from.threads, postgres: to.postgres - from.postgres, other: to.other - from.other };
  return { ...d, total: d.main + d.threads + d.postgres + d.other };
}

/** CPU time (ms) of each thread of a process, largest first (Linux; empty elsewhere). */
export async function threadCpu(pid: number): Promise<Map<number, number>> {
  const result = new Map<number, number>();
  let tasks: string[] = [];
  try {
    tasks = await readdir(`/proc/${pid}/task`);
  } catch {
    return result;
  }
  for (const task of tasks) {
    try {
      result.set(Number(task), statCpu(await readFile(`/proc/${pid}/task/${task}/stat`, 'utf8'), false).ms);
    } catch {
      // gone meanwhile
    }
  }
  return result;
}
