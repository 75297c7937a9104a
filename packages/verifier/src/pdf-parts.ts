import { extractAttachment } from '@sceau/pdf/attachment';
import { readPdfQrCodes } from './pdf-qr.ts';

/** What verification needs from a PDF: its embedded credential and the texts of its first page's QR codes. */
export interface PdfParts {
  attachment: Uint8Array | null;
  codes: string[];
}

/**
 * The full parse (pdf-lib) of any PDF: used in-process by the command-line verifier, and inside a
 * parser thread with limits by the API (pdf-parse-pool.ts). One load after the other, so a thread
 * holds one parsed document at a time.
 */
export async function parsePdfParts(pdf: Uint8Array, attachmentName: string): Promise<PdfParts> {
  const attachment = await extractAttachment(pdf, attachmentName);
  const codes = await readPdfQrCodes(pdf);
  return { attachment, codes };
}
