import { IMPORT_LIMITS } from '@sceau/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { UploadedFiles } from './imports-service.ts';
import type { ResumableUploads } from './resumable-uploads.ts';
import { checkZipLimits, PHOTOS_ZIP_LIMITS, XLSX_ZIP_LIMITS, ZipLimitExceeded, ZipUnreadable, type ZipLimits } from './zip-limits.ts';

const LIMITS: Record<'file' | 'photos', number> = { file: IMPORT_LIMITS.listMaxBytes, photos: IMPORT_LIMITS.photosMaxBytes };
/** A sheet's name: Excel allows 31 characters, LibreOffice more; past this it is no sheet of a list. */
export const SHEET_NAME_MAX = 200;

/**
 * Reads an import form: its text fields, the list (`file`) and the optional photos zip (`photos`),
 * each within its size limit. A file over its limit is read to the end (and dropped) so the answer
 * can be sent, then refused with 413 and the field's message. The optional text field `sheet`
 * names the workbook's sheet to read.
 *
 * Instead of a file part, the form may name a finished resumable upload of the caller's (ADR 0150):
 * `file_upload` for the list, `photos_upload` for the zip. Their ids come back in `uploads`, to be
 * released once the check has stored what it needs (a refused check keeps them for another try).
 */
export async function readImportForm(request: FastifyRequest, resumable?: ResumableUploads): Promise<{ fields: Record<string, string>; files: UploadedFiles; uploads: string[] }> {
  if (!request.isMultipart()) throw new AppError('unsupported_media_type');
  const fields: Record<string, string> = {};
  const files: UploadedFiles = { list: null, photos: null, sheet: null };
  const tooLarge: string[] = [];
  for await (const part of request.parts()) {
    if (part.type !== 'file') {
      if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      continue;
    }
    const name = part.fieldname === 'file' || part.fieldname === 'photos' ? part.fieldname : null;
    if (!name) {
      part.file.resume();
      continue;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size <= LIMITS[name]) chunks.push(chunk);
    }
    if (size > LIMITS[name] || part.file.truncated) {
      tooLarge.push(name);
      continue;
    }
    if (size === 0) continue;
    const bytes = Buffer.concat(chunks);
    if (name === 'file') files.list = bytes;
    else files.photos = bytes;
  }
  if (tooLarge.length) {
    throw new AppError('payload_too_large', {
      fields: Object.fromEntries(
        tooLarge.map((name) => [
          name,
          [{ key: name === 'file' ? 'field.import_file_too_large' : 'field.import_photos_too_large', params: { size: LIMITS[name as 'file' | 'photos'] / 1024 / 1024 } }],
        ]),
      ),
    });
  }
  const uploads: string[] = [];
  if (resumable && request.user) {
    for (const [field, kind, part] of [
      ['file_upload', 'list', 'file'],
      ['photos_upload', 'photos', 'photos'],
    ] as const) {
      const id = fields[field]?.trim();
      if (!id) continue;
      if ((kind === 'list' ? files.list : files.photos) !== null) throw fieldError(field, 'field.upload_and_file');
      const bytes = await resumable.take(request.user, id, kind, part);
      if (kind === 'list') files.list = bytes;
      else files.photos = bytes;
      uploads.push(id);
    }
  }
  const sheet = fields.sheet?.trim();
  if (sheet && sheet.length > SHEET_NAME_MAX) throw fieldError('sheet', { key: 'field.too_big_string', params: { maximum: SHEET_NAME_MAX } });
  if (sheet) files.sheet = sheet;
  await checkInflatedSizes(files);
  return { fields, files, uploads };
}

const ZIP_MESSAGES = {
  entries: (max: number) => ({ key: 'field.import_zip_too_many_files', params: { count: max } }),
  entry_bytes: (max: number) => ({ key: 'field.import_zip_entry_too_large', params: { size: max / 1024 / 1024 } }),
  total_bytes: (max: number) => ({ key: 'field.import_zip_too_large_uncompressed', params: { size: max / 1024 / 1024 } }),
};

/**
 * A zipped list (XLSX, ODS) and a photos zip are inflated once here, counted and dropped, before anything is
 * read or stored (ADR 0114): past a cap the request is refused with 413, before a draft or a file
 * exists. A file that is no readable zip is left to the readers, which say so in their own words.
 */
async function checkInflatedSizes(files: UploadedFiles): Promise<void> {
  const checks: [field: 'file' | 'photos', bytes: Buffer, limits: ZipLimits][] = [];
  if (files.list && files.list.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) checks.push(['file', files.list, XLSX_ZIP_LIMITS]);
  if (files.photos) checks.push(['photos', files.photos, PHOTOS_ZIP_LIMITS]);
  for (const [field, bytes, limits] of checks) {
    try {
      await checkZipLimits(bytes, limits);
    } catch (error) {
      if (error instanceof ZipLimitExceeded) throw new AppError('payload_too_large', { fields: { [field]: [ZIP_MESSAGES[error.limit](error.max)] } });
      if (!(error instanceof ZipUnreadable)) throw error;
    }
  }
}
