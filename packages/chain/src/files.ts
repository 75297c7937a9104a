import fs from 'node:fs/promises';
import path from 'node:path';

/** Writes a file atomically and durably: temp file, fsync, rename, fsync of the directory. */
export async function writeFileAtomic(file: string, content: string | Uint8Array, mode = 0o644): Promise<void> {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const handle = await fs.open(tmp, 'w', mode);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmp, file);
  const dir = await fs.open(path.dirname(file), 'r').catch(() => null);
  await dir?.sync().catch(() => {});
  await dir?.close();
}
