import { createVerificationCache, registryPort, verify, type VerificationCache, type VerificationContext, type VerificationResult } from '@sceau/verifier';
import { eq } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { diplomas, generations } from '../../db/schema.ts';
import type { OpenChain } from '../chain/open-chain.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';

export type VerificationInput = { pdf: Uint8Array } | { credential: unknown } | { qr: string } | { diplomaId: string };

/**
 * Verification for the public: the one engine (packages/verifier) with the platform's trusted
 * identity, its chain and its database as the source of full credentials. Answers are cached and
 * dropped when the contract reports a revocation, so a results-day load does not wait on the chain;
 * an answer that could not be fully checked is never cached.
 */
export class VerificationService {
  private readonly cache: VerificationCache;
  private readonly context: VerificationContext;

  constructor(
    private readonly db: Db,
    config: Config,
    keys: MinistryKeys,
    chain: OpenChain,
  ) {
    this.cache = createVerificationCache({ ttlMs: 10 * 60_000, max: 50_000 });
    const base = config.publicUrl.replace(/\/$/, '');
    this.context = {
      jwks: async () => keys.jwks(),
      registry: registryPort(chain.registry),
      issuer: { id: config.issuer.id, name: config.issuer.name, jwksUrl: `${base}/.well-known/jwks.json`, registry: { chainId: chain.chainId, address: chain.address } },
      findCredential: async (id) => (await this.findDiploma(id))?.credential ?? null,
      knownUnpublished: async (id) => {
        const found = await this.findDiploma(id);
        return found !== null && found.status !== 'completed';
      },
    };
  }

  private async findDiploma(id: string) {
    if (!/^[A-Za-z0-9_-]{22}$/.test(id)) return null;
    const [row] = await this.db
      .select({ credential: diplomas.credential, status: generations.status })
      .from(diplomas)
      .innerJoin(generations, eq(generations.id, diplomas.generationId))
      .where(eq(diplomas.id, id));
    return row ?? null;
  }

  async verify(input: VerificationInput): Promise<VerificationResult> {
    const result = await this.cache.getOrVerify(input, () => verify(input, this.context));
    // "Not yet published" changes as soon as the batch is anchored, perhaps by another process: not kept.
    if (result.verdict === 'unpublished' && result.hashes) this.cache.invalidate(result.hashes.targetHash);
    return result;
  }

  /** The full credential of a published diploma, for independent verifiers (it carries the proof). */
  async credentialOf(id: string): Promise<unknown | null> {
    const found = await this.findDiploma(id);
    return found && found.status === 'completed' ? found.credential : null;
  }

  /** Revocations seen on the contract, and batches anchored, make earlier answers stale. */
  invalidate(hash: string): void {
    this.cache.invalidate(hash);
  }
}

/** The answer as the API gives it: each check with its translated title and message. */
export function presentResult(result: VerificationResult, t: TFunction, extra: { explorerTxUrl: string | null }) {
  return {
    verdict: result.verdict,
    verdict_label: t(`verification:verdict.${result.verdict}`),
    source: result.source,
    checks: result.checks.map((c) => {
      const details = c.details ?? null;
      const tx = details && typeof details.txHash === 'string' ? details.txHash : null;
      return {
        name: c.name,
        status: c.status,
        code: c.code,
        title: t(`verification:check.${c.name}`),
        message: t(`verification:code.${c.code}`),
        details,
        ...(c.name === 'anchored' && tx && extra.explorerTxUrl ? { link: extra.explorerTxUrl.replace('{tx}', tx) } : {}),
      };
    }),
    diploma: result.diploma ?? null,
  };
}
