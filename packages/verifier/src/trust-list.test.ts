import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './cli-run.ts';
import { parseTrustList, pinnedIssuers, TRUST_LIST_FORMAT, TRUST_LIST_MAX_BYTES, TrustListError } from './trust-list.ts';

const key = { kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0', kid: 'k1' };
const entry = { id: 'minepst.gouv.cd', name: 'Ministère', jwks: { keys: [key] }, registry: { chain_id: 31337, address: `0x${'ab'.repeat(20)}` } };

describe('a trust list read from a file or a platform (a stranger may have written it)', () => {
  it('is refused past its size bound before any parsing, and when not JSON or not of its format', () => {
    expect(() => parseTrustList(' '.repeat(TRUST_LIST_MAX_BYTES + 1))).toThrow(/larger than/);
    expect(() => parseTrustList('{nope')).toThrow(TrustListError);
    expect(() => parseTrustList({ format: 'other/1', issuers: [] })).toThrow(TrustListError);
    expect(() => parseTrustList({ format: TRUST_LIST_FORMAT, issuers: Array.from({ length: 101 }, () => entry) })).toThrow(TrustListError);
  });

  it("keeps a key's retired_at (ISO 8601) and the issuer's time-stamping authorities, within bounds (ADR 0138)", () => {
    const retiredAt = '2026-11-27T09:00:00.000Z';
    const tsa = Buffer.from('not parsed here, only bounded').toString('base64');
    const list = parseTrustList({ format: TRUST_LIST_FORMAT, issuers: [{ ...entry, jwks: { keys: [{ ...key, retired_at: retiredAt }] }, timestamp_authorities: [tsa] }] });
    expect(list.issuers[0]!.jwks.keys[0]!.retired_at).toBe(retiredAt);
    expect(pinnedIssuers(list)[0]!.timestampAuthorities).toEqual([tsa]);
    expect(() => parseTrustList({ format: TRUST_LIST_FORMAT, issuers: [{ ...entry, jwks: { keys: [{ ...key, retired_at: 'last week' }] } }] })).toThrow(/retired_at/);
    expect(() => parseTrustList({ format: TRUST_LIST_FORMAT, issuers: [{ ...entry, timestamp_authorities: Array.from({ length: 11 }, () => tsa) }] })).toThrow(
      /timestamp_authorities/,
    );
    expect(() => parseTrustList({ format: TRUST_LIST_FORMAT, issuers: [{ ...entry, timestamp_authorities: ['a'.repeat(20_001)] }] })).toThrow(/timestamp_authorities/);
  });

  it('refuses a key published with its private part (anyone could sign with it), naming where; drops members it does not know', () => {
    for (const member of ['d', 'p', 'k']) {
      expect(() => parseTrustList({ format: TRUST_LIST_FORMAT, issuers: [{ ...entry, jwks: { keys: [key, { ...key, kid: 'k2', [member]: 'secret' }] } }] })).toThrow(
        /issuers\.0\.jwks\.keys\.1: the list publishes this key with its private part/,
      );
    }
    const list = parseTrustList({ format: TRUST_LIST_FORMAT, issuers: [{ ...entry, jwks: { keys: [{ ...key, note: 'rotated in June' }] } }] });
    expect(list.issuers[0]!.jwks.keys[0]).not.toHaveProperty('note');
    expect(list.issuers[0]!.jwks.keys[0]).toEqual(key);
  });
});

describe('npm run verify -- trust-list <URL>', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('stops reading a platform answer past 1 MB (no length declared) and writes nothing', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sceau-trust-list-'));
    const out = path.join(dir, 'trust-list.json');
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
        if (sent > 8 * 1024 * 1024) controller.close();
      },
    });
    const stderr: string[] = [];
    const code = await runCli({
      argv: ['trust-list', 'https://minepst.gouv.cd', '--out', out],
      env: {},
      stdout: () => {},
      stderr: (text) => stderr.push(text),
      fetch: async () => new Response(endless, { status: 200, headers: { 'content-type': 'application/json' } }),
    });
    expect(code).toBe(1);
    expect(stderr.join('')).toMatch(/larger than 1048576 bytes/);
    expect(sent).toBeLessThan(2 * 1024 * 1024);
    expect(await readdir(dir)).toEqual([]);
  });
});
