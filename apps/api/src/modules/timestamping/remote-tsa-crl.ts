/**
 * The revocation data of a remote TSA (TSA_URL, ADR 0135, 0148): the CRLs its certificates name as
 * CRL distribution points, fetched so that each PDF's DSS also proves that the TSA's certificate
 * was not revoked when it time-stamped. The addresses come from a certificate the TSA sent, so each
 * fetch is bounded: http(s) only, 2 addresses per certificate, the TSA's time limit, 1 MB read. A
 * CRL is kept only if its issuer is the certificate's issuer and its signature verifies with that
 * issuer's key (from the token's chain or TSA_TRUST_ANCHORS). A CRL that cannot be had is reported,
 * never fatal: issuing goes on with the certificates alone, as before.
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { webcrypto } from 'node:crypto';

export const REMOTE_CRL_LIMITS = { maxBytes: 1024 * 1024, urlsPerCertificate: 2, certificates: 6 } as const;

export interface RemoteCrlOptions {
  timeoutMs: number;
  maxBytes?: number;
  fetch?: typeof fetch;
}

export interface RemoteCrl {
  url: string;
  der: Uint8Array;
  nextUpdate: Date | null;
}

/** The http(s) CRL distribution points of a certificate, at most `urlsPerCertificate`. */
export function crlUrlsOf(certificate: x509.X509Certificate): string[] {
  const extension = certificate.getExtension(x509.CRLDistributionPointsExtension);
  const urls: string[] = [];
  for (const point of extension?.distributionPoints ?? []) {
    for (const name of point.distributionPoint?.fullName ?? []) {
      const uri = name.uniformResourceIdentifier;
      if (uri && /^https?:\/\//i.test(uri) && uri.length <= 2000 && !urls.includes(uri)) urls.push(uri);
    }
  }
  return urls.slice(0, REMOTE_CRL_LIMITS.urlsPerCertificate);
}

/** Reads a response body up to `maxBytes`; throws beyond. */
async function readBounded(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw new Error(`larger than ${maxBytes} bytes`);
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new Error(`larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** DER of a CRL sent as DER or PEM. */
function crlDerOf(body: Uint8Array): Uint8Array {
  const text = Buffer.from(body).toString('latin1');
  const pem = /-----BEGIN X509 CRL-----([\s\S]*?)-----END X509 CRL-----/.exec(text);
  return pem ? new Uint8Array(Buffer.from(pem[1]!.replace(/\s+/g, ''), 'base64')) : body;
}

/**
 * The CRLs of a TSA's certificate chain (leaf first; `anchors` adds issuers the token does not
 * carry), each fetched once, and the problems met. Self-signed certificates are skipped (a root
 * is trusted as configured, not checked against its own list).
 */
export async function fetchTsaCrls(
  chainDer: readonly Uint8Array[],
  anchorsDer: readonly Uint8Array[],
  options: RemoteCrlOptions,
): Promise<{ crls: RemoteCrl[]; problems: string[] }> {
  const fetchFn = options.fetch ?? fetch;
  const maxBytes = options.maxBytes ?? REMOTE_CRL_LIMITS.maxBytes;
  // @peculiar/x509 is typed against the DOM's Crypto; Node's webcrypto is that implementation.
  const crypto = webcrypto as unknown as Parameters<x509.X509Crl['verify']>[1];
  const certificates = chainDer.slice(0, REMOTE_CRL_LIMITS.certificates).map((der) => new x509.X509Certificate(der));
  const issuers = [...certificates, ...anchorsDer.map((der) => new x509.X509Certificate(der))];
  const crls: RemoteCrl[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const certificate of certificates) {
    if (certificate.subject === certificate.issuer) continue;
    const issuer = issuers.find((candidate) => candidate.subject === certificate.issuer);
    for (const url of crlUrlsOf(certificate)) {
      if (seen.has(url)) continue;
      seen.add(url);
      try {
        if (!issuer) throw new Error(`its issuer (${certificate.issuer}) is neither in the TSA's chain nor in TSA_TRUST_ANCHORS`);
        const response = await fetchFn(url, { signal: AbortSignal.timeout(options.timeoutMs), redirect: 'error' });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const der = crlDerOf(await readBounded(response, maxBytes));
        const crl = new x509.X509Crl(der);
        if (crl.issuer !== certificate.issuer) throw new Error(`issued by ${crl.issuer}, not by ${certificate.issuer}`);
        if (!(await crl.verify({ publicKey: issuer }, crypto))) throw new Error("its signature does not verify with its issuer's key");
        crls.push({ url, der, nextUpdate: crl.nextUpdate ?? null });
      } catch (error) {
        problems.push(`the CRL of ${certificate.subject} at ${url}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  return { crls, problems };
}
