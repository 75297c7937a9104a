/**
 * A photo of a diploma's QR code, read in the browser: the decoder is fetched on demand (the
 * first photo), then the content is classified. Never throws: the outcome names the problem.
 */
import { classifyQrText, type QrContent } from '@/features/verification/qr-content';

export type QrPhotoProblem = 'notFound' | 'unreadable' | 'foreign' | 'loadFailed';
export type QrPhotoOutcome = { ok: true; content: QrContent } | { ok: false; problem: QrPhotoProblem };

const IMAGE_NAME = /\.(jpe?g|png|webp|gif|bmp|heic|heif|avif)$/i;

export function isImageFile(file: File): boolean {
  return file.type.startsWith('image/') || (!file.type && IMAGE_NAME.test(file.name));
}

export async function readQrPhoto(file: Blob): Promise<QrPhotoOutcome> {
  let decoder: typeof import('@/features/verification/qr-decode');
  try {
    decoder = await import('@/features/verification/qr-decode');
  } catch {
    return { ok: false, problem: 'loadFailed' };
  }
  try {
    const content = classifyQrText(await decoder.decodeQrImage(file));
    return content ? { ok: true, content } : { ok: false, problem: 'foreign' };
  } catch (error) {
    return { ok: false, problem: error instanceof decoder.UnreadableImageError ? 'unreadable' : 'notFound' };
  }
}
