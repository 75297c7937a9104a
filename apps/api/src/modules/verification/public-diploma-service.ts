import { createHash } from 'node:crypto';
import { type GenerationStatus, isPublished } from '@sceau/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { diplomas, generationItems, generations } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { FileStorage } from '../../lib/storage.ts';
import type { DownloadCounter } from './public-download-counter.ts';

/**
 * What anyone holding a diploma's link may fetch besides its verification: the signed PDF (a
 * counted download) and the photo. Only for a published diploma that is not revoked, itself or
 * with its batch; anything else is "not found", so these say no more than `GET /verify/{id}` does.
 */
export class PublicDiplomaService {
  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    private readonly downloads: DownloadCounter,
  ) {}

  private async published(id: string) {
    const [row] = await this.db
      .select({ pdfKey: diplomas.pdfKey, revokedAt: diplomas.revokedAt, status: generations.status, batchRevokedAt: generations.revokedAt, photoKey: generationItems.photoKey })
      .from(diplomas)
      .innerJoin(generations, eq(generations.id, diplomas.generationId))
      .innerJoin(generationItems, eq(generationItems.id, diplomas.itemId))
      .where(eq(diplomas.id, id));
    if (!row || !isPublished(row.status as GenerationStatus) || row.revokedAt || row.batchRevokedAt) throw new AppError('not_found');
    return row;
  }

  /** The signed PDF; the download is counted for `address`. */
  async pdf(id: string, address: string): Promise<Buffer> {
    const row = await this.published(id);
    const pdf = row.pdfKey ? await this.storage.get(row.pdfKey) : null;
    if (!pdf) throw new AppError('not_found');
    this.downloads.record(id, address);
    return pdf;
  }

  /** The photo's ETag (from its key), and the photo itself, read only when the client lacks it. */
  async photo(id: string): Promise<{ etag: string; read: () => Promise<Buffer> }> {
    const { photoKey } = await this.published(id);
    if (!photoKey) throw new AppError('not_found');
    return {
      etag: `"${createHash('sha256').update(photoKey).digest('base64url').slice(0, 16)}"`,
      read: async () => {
        const photo = await this.storage.get(photoKey);
        if (!photo) throw new AppError('not_found');
        return photo;
      },
    };
  }
}
