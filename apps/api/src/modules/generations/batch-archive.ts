import { ZipArchive } from 'archiver';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { diplomas, generationItems } from '../../db/schema.ts';
import type { FileStorage } from '../../lib/storage.ts';

/** A zip of stored PDFs (already compressed: stored as they are). */
export function newBatchArchive(): ZipArchive {
  return new ZipArchive({ store: true });
}

/**
 * Fills a batch's zip with its signed PDFs and finalizes it, one PDF in memory at a time (the next
 * is read when the previous has gone into the archive): the archive is meant to be piped to a
 * response or a file, never held whole. `beforeEnd` runs once every file is in and before the zip
 * ends (counting the downloads then means a caller holding the whole zip finds them counted).
 * Answers how many files went in. The one zip builder of the export, the link and the e-mail.
 */
export async function fillBatchArchive(db: Db, storage: FileStorage, generationId: number, archive: ZipArchive, beforeEnd?: (files: number) => Promise<void>): Promise<number> {
  const added = new Set<string>();
  let after = 0;
  for (;;) {
    const page = await db
      .select({ itemId: diplomas.itemId, id: diplomas.id, code: diplomas.candidateCode, pdfKey: diplomas.pdfKey, last: generationItems.lastName, first: generationItems.firstName })
      .from(diplomas)
      .innerJoin(generationItems, eq(generationItems.id, diplomas.itemId))
      .where(and(eq(diplomas.generationId, generationId), sql`${diplomas.itemId} > ${after}`, sql`${diplomas.pdfKey} is not null`))
      .orderBy(diplomas.itemId)
      .limit(100);
    if (page.length === 0) break;
    for (const d of page) {
      const pdf = await storage.get(d.pdfKey!);
      if (!pdf) continue;
      const name = `${d.code}-${[d.last, d.first].filter(Boolean).join('-')}`
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[^A-Za-z0-9-]+/g, '-');
      const unique = added.has(name) ? `${name}-${d.id}` : name;
      await new Promise<void>((resolve) => {
        archive.once('entry', () => resolve());
        archive.append(pdf, { name: `${unique}.pdf` });
      });
      added.add(name);
    }
    after = page.at(-1)!.itemId;
  }
  await beforeEnd?.(added.size);
  await archive.finalize();
  return added.size;
}

export function archiveFileName(generationId: number): string {
  return `diplomes-lot-${generationId}.zip`;
}
