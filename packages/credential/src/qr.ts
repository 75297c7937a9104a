/**
 * The signed QR payload (ADR 0011): signing, and the check with @noble/curves (any JavaScript
 * context, secure or not). The codec itself (fields, claims, reading) is qr-codec.ts.
 */
import { toBase45 } from './base45.ts';
import { signCoseSign1 } from './cose.ts';
import { verifyEs256, type Es256Signer, type Jwks } from './keys.ts';
import { encodeQrClaims, QR_PREFIX, qrVerification, readQrPayload, type QrFields, type QrVerification } from './qr-codec.ts';
import { zlibCompress } from './zlib.ts';

export * from './qr-codec.ts';

export interface EncodedQr {
  /** What the QR code holds: "SC1:" + base45. */
  text: string;
  /** The bytes before base45 (counted against the ~280-byte budget): zlib(COSE) or, when
   *  compression does not save bytes, the COSE_Sign1 message itself. */
  bytes: Uint8Array;
  /** The COSE_Sign1 message before compression. */
  cose: Uint8Array;
}

export interface EncodeQrOptions {
  /**
   * zlib (RFC 1950) compression of the COSE message; default pako (any JavaScript context). A server
   * issuing in bulk passes node:zlib's (`nodeZlibCompress` from '@sceau/credential/node-signer'):
   * native, and without pako's ~300 KB of fresh state per call for the garbage collector.
   */
  compress?: (bytes: Uint8Array) => Uint8Array;
}

export async function encodeQrPayload(fields: QrFields, signer: Es256Signer, options: EncodeQrOptions = {}): Promise<EncodedQr> {
  const cose = await signCoseSign1(encodeQrClaims(fields), signer);
  const deflated = (options.compress ?? zlibCompress)(cose);
  // As in the EU DCC, compression is used when it saves bytes; short, high-entropy payloads
  // often grow by zlib's 6 bytes of framing. Readers tell the two apart by the first byte.
  const bytes = deflated.length < cose.length ? deflated : cose;
  return { text: QR_PREFIX + toBase45(bytes), bytes, cose };
}

/** Reads and verifies a scanned QR text against the ministry's JWKS. Never throws. */
export function verifyQrPayload(text: string, jwks: Jwks): QrVerification {
  const reading = readQrPayload(text, jwks);
  if (reading.status !== 'signed') return reading;
  return qrVerification(reading, verifyEs256(reading.jwk, reading.signed, reading.signature));
}
