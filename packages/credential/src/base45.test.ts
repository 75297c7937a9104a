import { describe, expect, it } from 'vitest';
import { fromBase45, toBase45 } from './base45.ts';

describe('base45', () => {
  it('follows RFC 9285', () => {
    expect(toBase45(new TextEncoder().encode('AB'))).toBe('BB8');
    expect(toBase45(new TextEncoder().encode('Hello!!'))).toBe('%69 VD92EX0');
    expect(new TextDecoder().decode(fromBase45('QED8WEX0'))).toBe('ietf!');
  });

  it('encodes the bytes of a view, not the pool it sits in', () => {
    // A Node Buffer from the shared pool: its `.buffer` holds other data before its offset.
    const pooled = Buffer.from([0xd2, 0x84, 0x43, 0xa1, 0x01, 0x26]);
    expect(pooled.byteOffset).toBeGreaterThan(0);
    expect(fromBase45(toBase45(pooled))).toEqual(new Uint8Array([0xd2, 0x84, 0x43, 0xa1, 0x01, 0x26]));
    const inner = new Uint8Array([9, 9, 1, 2, 3, 9]).subarray(2, 5);
    expect(fromBase45(toBase45(inner))).toEqual(new Uint8Array([1, 2, 3]));
  });
});
