import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { emptyTrustList, formatTrustList, trustListEntry, upsertTrustListEntry } from '@sceau/verifier/trust-list';
import type { Config } from '../../config.ts';
import type { OpenChain } from '../chain/open-chain.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';
import { issuerDocument } from './well-known-routes.ts';

/**
 * On development keys, the issuer's trust list entry (ADR 0133), written at start to
 * `DATA_DIR/trust-list.json` from the documents the platform publishes: the independent verifier
 * run in this checkout pins this development issuer with no option, and refuses a look-alike. The
 * entry is marked `development`, the only kind the verifier takes from that file. Configured
 * (production) keys write nothing: a ministry ships its list with `npm run verify -- trust-list`.
 */
export async function writeDevelopmentTrustList(config: Config, keys: MinistryKeys, chain: Pick<OpenChain, 'chainId' | 'address' | 'local'>): Promise<string | null> {
  if (keys.mode !== 'development') return null;
  const document = issuerDocument(config, keys, chain);
  const entry = trustListEntry(document, keys.jwks(), { development: true, source: `${document.url}/.well-known/sceau-issuer.json` });
  const file = path.join(config.dataDir, 'trust-list.json');
  await writeFile(`${file}.tmp`, formatTrustList(upsertTrustListEntry(emptyTrustList(), entry)));
  await rename(`${file}.tmp`, file);
  return file;
}
