import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';

/** request.ip as the platform's Fastify sees it with a TRUST_PROXY value. */
async function ipSeen(trustProxy: string, remoteAddress: string, forwardedFor?: string): Promise<string> {
  const config = loadConfig({ TRUST_PROXY: trustProxy });
  const app = Fastify({ trustProxy: config.trustProxy });
  app.get('/ip', async (request) => request.ip);
  const res = await app.inject({ method: 'GET', url: '/ip', remoteAddress, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
  await app.close();
  return res.body;
}

describe('TRUST_PROXY', () => {
  it('refuses true at start, saying what to write instead', () => {
    for (const value of ['true', 'yes', 'on']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY: .*would trust any client's X-Forwarded-For; give the addresses or CIDRs of the proxies/);
    }
    // Fastify 5 ignores a hop count (it cannot tell a proxy from a direct client): refused rather than silently off.
    expect(() => loadConfig({ TRUST_PROXY: '1' })).toThrow(/a hop count \(1\) cannot tell a proxy from a client/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.300' })).toThrow(/not a hop count nor proxy addresses or CIDRs: 10.0.0.300/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
  });

  it('reads false and a list of addresses and CIDRs', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,::1,loopback' }).trustProxy).toEqual(['10.0.0.5', '10.1.0.0/16', '::1', 'loopback']);
  });

  it('ignores X-Forwarded-For from a client that is not a trusted proxy', async () => {
    // What TRUST_PROXY=true did: the client chose its address.
    const spoofable = Fastify({ trustProxy: true });
    spoofable.get('/ip', async (request) => request.ip);
    expect((await spoofable.inject({ url: '/ip', remoteAddress: '203.0.113.5', headers: { 'x-forwarded-for': '198.51.100.7' } })).body).toBe('198.51.100.7');
    await spoofable.close();

    expect(await ipSeen('10.1.0.0/16', '203.0.113.5', '198.51.100.7')).toBe('203.0.113.5');
    expect(await ipSeen('false', '203.0.113.5', '198.51.100.7')).toBe('203.0.113.5');
    // Through the trusted proxy, the client's address is the one the proxy appended.
    expect(await ipSeen('10.1.0.0/16', '10.1.2.3', '198.51.100.7')).toBe('198.51.100.7');
    expect(await ipSeen('10.1.0.0/16', '10.1.2.3', '192.0.2.66, 198.51.100.7')).toBe('198.51.100.7');
  });
});
