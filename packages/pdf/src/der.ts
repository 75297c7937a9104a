// Minimal DER: enough to build a CMS SignedData and to read one back. Building by hand keeps the
// signature path to a few concatenations (the CMS differs between documents only by two values).

export function derLength(length: number): Uint8Array {
  if (length < 0x80) return Uint8Array.of(length);
  const bytes: number[] = [];
  for (let l = length; l > 0; l = Math.floor(l / 256)) bytes.unshift(l & 0xff);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

export function tlv(tag: number, ...contents: Uint8Array[]): Uint8Array {
  const bodyLength = contents.reduce((sum, c) => sum + c.length, 0);
  const length = derLength(bodyLength);
  const out = new Uint8Array(1 + length.length + bodyLength);
  out[0] = tag;
  out.set(length, 1);
  let offset = 1 + length.length;
  for (const c of contents) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

export const sequence = (...items: Uint8Array[]) => tlv(0x30, ...items);
export const set = (...items: Uint8Array[]) => tlv(0x31, ...items);
export const octetString = (bytes: Uint8Array) => tlv(0x04, bytes);
export const contextConstructed = (n: number, ...items: Uint8Array[]) => tlv(0xa0 + n, ...items);
export const derNull = Uint8Array.of(0x05, 0x00);

export function smallInteger(value: number): Uint8Array {
  if (value < 0 || value > 127) throw new Error('smallInteger takes 0..127');
  return Uint8Array.of(0x02, 0x01, value);
}

/**
 * The content of a DER INTEGER holding an unsigned big-endian number: leading zero bytes dropped
 * (DER wants the shortest form; OpenSSL refuses "illegal padding") and one put back when the first
 * remaining byte has its top bit set, so the number stays positive.
 */
export function unsignedIntegerContent(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  const body = bytes.length === 0 ? Uint8Array.of(0) : bytes.subarray(i);
  return body[0]! & 0x80 ? Uint8Array.of(0, ...body) : body;
}

/** A DER INTEGER (tag and length included) of an unsigned big-endian number. */
export const unsignedInteger = (bytes: Uint8Array) => tlv(0x02, unsignedIntegerContent(bytes));

export function oid(dotted: string): Uint8Array {
  const parts = dotted.split('.').map(Number);
  const bytes: number[] = [40 * parts[0]! + parts[1]!];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [part & 0x7f];
    for (let v = Math.floor(part / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Uint8Array.from(bytes));
}

/** DER SET OF: elements sorted by their encodings. */
export function setOf(items: Uint8Array[]): Uint8Array {
  const sorted = [...items].sort((a, b) => Buffer.compare(a, b));
  return set(...sorted);
}

export interface DerNode {
  tag: number;
  /** Offset of the tag byte. */
  start: number;
  /** Offset of the first content byte. */
  contentStart: number;
  /** Offset after the last content byte. */
  end: number;
}

export function readNode(bytes: Uint8Array, offset: number): DerNode {
  if (offset + 2 > bytes.length) throw new Error('DER: truncated');
  const tag = bytes[offset]!;
  if ((tag & 0x1f) === 0x1f) throw new Error('DER: multi-byte tags are not supported');
  let length = bytes[offset + 1]!;
  let contentStart = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4) throw new Error('DER: unsupported length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + bytes[contentStart + i]!;
    contentStart += count;
  }
  const end = contentStart + length;
  if (end > bytes.length) throw new Error('DER: length beyond the data');
  return { tag, start: offset, contentStart, end };
}

export function children(bytes: Uint8Array, node: DerNode): DerNode[] {
  const out: DerNode[] = [];
  for (let offset = node.contentStart; offset < node.end; ) {
    const child = readNode(bytes, offset);
    out.push(child);
    offset = child.end;
  }
  return out;
}

export const raw = (bytes: Uint8Array, node: DerNode): Uint8Array => bytes.subarray(node.start, node.end);
export const content = (bytes: Uint8Array, node: DerNode): Uint8Array => bytes.subarray(node.contentStart, node.end);

export function decodeOid(bytes: Uint8Array, node: DerNode): string {
  const body = content(bytes, node);
  const parts = [Math.floor(body[0]! / 40), body[0]! % 40];
  let value = 0;
  for (let i = 1; i < body.length; i++) {
    value = value * 128 + (body[i]! & 0x7f);
    if (!(body[i]! & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}
