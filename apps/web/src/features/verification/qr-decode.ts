/**
 * Reading a diploma's QR code from pixels (a photo or a camera frame), in the browser: the
 * browser's own BarcodeDetector where it has one that reads QR codes (Chrome on Android, Safari),
 * otherwise the `qr` library's decoder (ADR 0095). Loaded on demand, with the photo or the camera.
 */
import decodeQR from 'qr/decode.js';
import { readImagePixels, type Rgba } from '@/features/verification/qr-pixels';

export { UnreadableImageError } from '@/features/verification/qr-pixels';

/** No QR code could be read in the image. */
export class QrNotFoundError extends Error {
  constructor() {
    super('no QR code found');
    this.name = 'QrNotFoundError';
  }
}

interface NativeDetector {
  detect(image: ImageBitmapSource): Promise<Array<{ rawValue: string; format: string }>>;
}
interface NativeDetectorClass {
  new (options: { formats: string[] }): NativeDetector;
  getSupportedFormats(): Promise<string[]>;
}

let nativeDetector: Promise<NativeDetector | null> | undefined;

/** The browser's BarcodeDetector for QR codes, or null where there is none. */
export function nativeQrDetector(): Promise<NativeDetector | null> {
  nativeDetector ??= (async () => {
    const Detector = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
    if (typeof Detector !== 'function') return null;
    try {
      const formats = await Detector.getSupportedFormats();
      return formats.includes('qr_code') ? new Detector({ formats: ['qr_code'] }) : null;
    } catch {
      return null;
    }
  })();
  return nativeDetector;
}

/** For tests: forget the detector found earlier. */
export function resetNativeQrDetector(): void {
  nativeDetector = undefined;
}

export interface DecodeOptions {
  /** Photos get time and every retry the decoder has; camera frames keep to a frame's budget. */
  thorough?: boolean;
}

/** The text of the first QR code in the pixels, or null. */
export function decodeQrPixels(image: Rgba, { thorough = false }: DecodeOptions = {}): string | null {
  try {
    return decodeQR(image, thorough ? { effort: Infinity, timeLimit: 4000 } : {});
  } catch {
    // The decoder throws when it finds no QR code (a frame miss, for the camera).
    return null;
  }
}

async function decodeNative(source: ImageBitmapSource): Promise<string | null> {
  const detector = await nativeQrDetector();
  if (!detector) return null;
  try {
    const codes = await detector.detect(source);
    return codes.find((code) => code.rawValue)?.rawValue ?? null;
  } catch {
    return null;
  }
}

/** Reads a pixel frame: the native detector first, then the library. */
export async function decodeQrFrame(image: Rgba, options: DecodeOptions = {}): Promise<string | null> {
  if (image.data instanceof Uint8ClampedArray && typeof ImageData === 'function' && image instanceof ImageData) {
    const native = await decodeNative(image);
    if (native) return native;
  }
  return decodeQrPixels(image, options);
}

export interface ImageDecodeDeps {
  readPixels?: (file: Blob) => Promise<Rgba>;
}

/**
 * The text of a QR code in a photo. Throws UnreadableImageError when the file is not an image the
 * browser reads, QrNotFoundError when no QR code is found in it.
 */
export async function decodeQrImage(file: Blob, { readPixels = readImagePixels }: ImageDecodeDeps = {}): Promise<string> {
  const pixels = await readPixels(file);
  const text = (await decodeQrFrame(pixels, { thorough: true })) ?? retryDownscaled(pixels);
  if (!text) throw new QrNotFoundError();
  return text;
}

/**
 * A blurred or noisy photo often reads once halved (the blur shrinks, the modules stay a few
 * pixels wide); the decoder's own pyramid does not always go that far on a large photo.
 */
function retryDownscaled(image: Rgba): string | null {
  let current = image;
  while (Math.min(current.width, current.height) >= 400) {
    current = halve(current);
    const text = decodeQrPixels(current, { thorough: true });
    if (text) return text;
  }
  return null;
}

function halve({ width, height, data }: Rgba): Rgba {
  const w = width >> 1;
  const h = height >> 1;
  const out = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      const a = (2 * y * width + 2 * x) * 4;
      const b = a + width * 4;
      for (let c = 0; c < 4; c++) out[o + c] = (data[a + c]! + data[a + 4 + c]! + data[b + c]! + data[b + 4 + c]!) >> 2;
    }
  }
  return { width: w, height: h, data: out };
}
