import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bitstringEntry, decodeBitstring, encodeBitstring, encodeTokenStatusList, STATUS_LIST_SIZE, StatusListError, tokenStatusListEntry } from './status-list.ts';

describe('status lists', () => {
  it('the W3C bitstring: 131,072 entries, index 0 the first byte’s most significant bit, GZIP + multibase base64url', () => {
    const encoded = encodeBitstring([0, 9, STATUS_LIST_SIZE - 1]);
    expect(encoded.startsWith('u')).toBe(true);
    const bytes = decodeBitstring(encoded);
    expect(bytes.length).toBe(STATUS_LIST_SIZE / 8);
    expect(bytes[0]).toBe(0x80);
    expect(bytes[1]).toBe(0x40);
    expect(bytes.at(-1)).toBe(0x01);
    expect([0, 1, 8, 9, STATUS_LIST_SIZE - 1].map((i) => bitstringEntry(encoded, i))).toEqual([true, false, false, true, true]);
  });

  it('the IETF token status list: the same bits, index 0 the first byte’s least significant bit, ZLIB', () => {
    const revoked = [0, 9, 4242];
    const list = encodeTokenStatusList(revoked);
    expect(list.bits).toBe(1);
    const encoded = encodeBitstring(revoked);
    for (const i of [0, 1, 8, 9, 4241, 4242, 4243, STATUS_LIST_SIZE - 1]) expect(tokenStatusListEntry(list, i)).toBe(bitstringEntry(encoded, i));
  });

  it('refuses an index outside the list, a non-multibase list and a GZIP bomb', () => {
    expect(() => encodeBitstring([STATUS_LIST_SIZE])).toThrow(StatusListError);
    expect(() => bitstringEntry(encodeBitstring([]), STATUS_LIST_SIZE)).toThrow(StatusListError);
    expect(() => decodeBitstring('zabc')).toThrow(/multibase/);
    const bomb = `u${gzipSync(Buffer.alloc(64 * 1024 * 1024)).toString('base64url')}`;
    expect(() => decodeBitstring(bomb)).toThrow(/at most 2 MiB/);
  });
});
