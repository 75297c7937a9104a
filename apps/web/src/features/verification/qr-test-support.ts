/**
 * For tests only (node, sharp): a demo diploma's real signed QR payload and its verification link,
 * and photos of their QR codes as a phone would take them (rotated, scaled, sheared, blurred,
 * noisy, unevenly lit, JPEG-compressed). Never imported by the app.
 */
import {
  createSoftwareSigner,
  encodeQrPayload,
  generateEs256Jwk,
  newDiplomaId,
  qrFieldsFromDocument,
  toPublicJwk,
  wrapBatch,
  type EcPrivateJwk,
  type Jwks,
} from '@sceau/credential';
import encodeQR from 'qr';
import sharp from 'sharp';
import { UnreadableImageError, type Rgba } from '@/features/verification/qr-pixels';

/** The first demo candidate of the seeded batch (apps/api/src/seed/demo-batch.ts), as issued. */
export function demoRecord(diplomaId = newDiplomaId()) {
  return {
    diploma_id: diplomaId,
    candidate_code: '32011804500001',
    last_name: 'Ngalula',
    middle_name: 'Kabamba',
    first_name: 'Élodie',
    birth_date: '2007-03-14',
    birth_place: 'Kinshasa',
    gender: 'F' as const,
    option: 'Biologie-Chimie',
    option_code: 'BC',
    school: 'Complexe Scolaire Mgr Kabangu',
    school_code: '3201045',
    centre: 'Centre Lycée Tuendelee',
    centre_code: '320118',
    educ_province: 'Kinshasa-Funa',
    educ_province_code: 'KIN1',
    session: 'Session 2026',
    session_year: 2026,
    percentage: 72.5,
    issue_date: '2026-08-20',
    issuer: 'minepst.gouv.cd',
  };
}

export interface SignedDemo {
  text: string;
  diplomaId: string;
  key: EcPrivateJwk;
  jwks: Jwks;
}

/** A demo diploma's offline QR payload, signed the way the issuing job signs it, with a fresh key. */
export async function signedDemoPayload(key: EcPrivateJwk = generateEs256Jwk()): Promise<SignedDemo> {
  const record = demoRecord();
  const { documents } = wrapBatch([record], {
    issuer: {
      id: 'minepst.gouv.cd',
      name: 'Ministère de l’Éducation nationale',
      jwks_url: 'http://localhost:3000/.well-known/jwks.json',
      registry: { chain_id: 72328, contract: '0x5fbdb2315678afecb367f032d93f642f64180aa3' },
    },
  });
  const qr = await encodeQrPayload(qrFieldsFromDocument(documents[0]!), createSoftwareSigner(key));
  return { text: qr.text, diplomaId: record.diploma_id, key, jwks: { keys: [toPublicJwk(key)] } };
}

export interface PhotoOptions {
  /** Degrees, clockwise. */
  rotate?: number;
  /** Pixels per QR module before the photo's own scaling. */
  module?: number;
  /** Final width of the photo. */
  width?: number;
  /** Horizontal shear (a sheet not quite facing the lens). */
  shear?: number;
  blur?: number;
  /** Standard deviation of the sensor noise, in grey levels. */
  noise?: number;
  /** Darkening from left to right (a shadow), 0 to 1. */
  shadow?: number;
  format?: 'jpeg' | 'png';
  quality?: number;
}

/** A sheet of paper holding the QR codes of `texts` side by side, photographed. */
export async function qrPhoto(texts: string[], options: PhotoOptions = {}): Promise<Buffer> {
  const { rotate = 0, module = 6, width = 1200, shear = 0, blur = 0, noise = 0, shadow = 0, format = 'jpeg', quality = 80 } = options;
  const symbols = texts.map((text) => encodeQR(text, 'raw', { ecc: 'quartile', border: 2 }));
  const gap = 10 * module;
  const sheetWidth = Math.max(60 * module, symbols.reduce((sum, rows) => sum + rows.length * module, 0) + gap * (symbols.length + 1));
  const sheetHeight = Math.max(40 * module, ...symbols.map((rows) => rows.length * module)) + 2 * gap;
  const sheet = new Uint8Array(sheetWidth * sheetHeight).fill(238);
  let left = gap;
  for (const rows of symbols) {
    rows.forEach((row, y) => {
      row.forEach((dark, x) => {
        const value = dark ? 28 : 250;
        for (let dy = 0; dy < module; dy++)
          sheet.fill(value, (gap + y * module + dy) * sheetWidth + left + x * module, (gap + y * module + dy) * sheetWidth + left + (x + 1) * module);
      });
    });
    left += rows.length * module + gap;
  }
  let image = sharp(sheet, { raw: { width: sheetWidth, height: sheetHeight, channels: 1 } })
    .affine([1, shear, 0, 1], { background: '#4a4038' })
    .rotate(rotate, { background: '#4a4038' })
    .resize({ width });
  if (blur > 0) image = image.blur(blur);
  const { data, info } = await image.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  // Sensor noise and a shadow across the sheet, on the pixels themselves (deterministic).
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const gaussian = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const light = 1 - shadow * (x / info.width);
      const n = noise * gaussian();
      for (let c = 0; c < info.channels; c++) {
        const i = (y * info.width + x) * info.channels + c;
        data[i] = Math.max(0, Math.min(255, Math.round(data[i]! * light + n)));
      }
    }
  }
  const photo = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  return format === 'png' ? photo.png().toBuffer() : photo.jpeg({ quality }).toBuffer();
}

/** What a browser's image decoder gives for a file (sharp here). */
export async function sharpPixels(file: Blob): Promise<Rgba> {
  const decoded = await sharp(Buffer.from(await file.arrayBuffer()))
    .rotate()
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch((error: unknown) => {
      throw new UnreadableImageError(error);
    });
  const { data, info } = decoded;
  return { width: info.width, height: info.height, data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength) };
}

export function imageFile(bytes: Buffer, name: string, type: string): File {
  return new File([new Uint8Array(bytes)], name, { type });
}
