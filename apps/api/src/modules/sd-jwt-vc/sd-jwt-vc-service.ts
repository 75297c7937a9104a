import { type JsonWebKey, X509Certificate } from 'node:crypto';
import { diplomaRecordSchema } from '@sceau/credential';
import { claimsFromRecord, DIPLOMA_KINDS, issueDiplomaSdJwt, jwtVcIssuerMetadata, typeMetadata, vctUrl, type DiplomaKind } from '@sceau/sd-jwt';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { diplomas, generations } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { Actor } from '../../policies/actor.ts';
import { holderPolicy } from '../../policies/holder-policy.ts';
import { authorize } from '../../policies/policy.ts';
import { factsOf, findDiploma, findHolderAccount } from '../holder/holder-repository.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';

/**
 * The `x5c` of an SD-JWT VC: the ministry key's certificate chain, leaf first, base64 DER, without
 * its trust anchor (a self-signed root is the wallet's to hold, not the token's, as HAIP asks).
 */
export function x5cOf(chainDer: readonly Uint8Array[]): string[] {
  const chain = chainDer.map((der) => new X509Certificate(Buffer.from(der)));
  const last = chain.at(-1);
  const selfSigned = !!last && chain.length > 1 && last.issuer === last.subject && last.checkIssued(last);
  return (selfSigned ? chainDer.slice(0, -1) : chainDer).map((der) => Buffer.from(der).toString('base64'));
}

/**
 * Where a diploma's status is published (the credential-status module): its index in the
 * platform's IETF Token Status List and that list's address. Null when the platform publishes no
 * status list: the credential then carries no `status` claim.
 */
export interface StatusEntries {
  entryFor(diplomaId: string): Promise<{ index: number; tokenStatusUrl: string }>;
}

/**
 * The SD-JWT VC of a published diploma (ADR 0145): its issued record as claims, every personal
 * one selectively disclosable, signed ES256 by the ministry's active key through its signer (a
 * PKCS#11 token in production: the key is never read here), its `status` pointing to the token
 * status list. The wallet's key, when it gives one, is bound as `cnf.jwk`.
 */
export class SdJwtVcService {
  /** The issuer identifier (`iss`): the platform's public address. */
  readonly issuer: string;
  /** The diploma type's address (`vct`), where its Type Metadata is served. */
  readonly vct: string;

  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'publicUrl' | 'issuer'>,
    private readonly keys: MinistryKeys,
    private readonly status: StatusEntries | null,
  ) {
    this.issuer = config.publicUrl.replace(/\/+$/, '');
    this.vct = vctUrl(this.issuer);
  }

  async issue(diplomaId: string, options?: { holderPublicJwk?: JsonWebKey }): Promise<string> {
    const [row] = await this.db
      .select({ credential: diplomas.credential, kind: generations.type })
      .from(diplomas)
      .innerJoin(generations, eq(generations.id, diplomas.generationId))
      .where(eq(diplomas.id, diplomaId));
    if (!row) throw new AppError('not_found');
    // The claims are the record the diploma was issued with (the PDF's and the chain's), nothing re-read.
    const parsed = diplomaRecordSchema.safeParse((row.credential as { record?: unknown } | null)?.record);
    if (!parsed.success || !(DIPLOMA_KINDS as readonly string[]).includes(row.kind)) throw new AppError('not_found');
    const entry = this.status ? await this.status.entryFor(diplomaId) : null;
    const { active } = this.keys;
    return issueDiplomaSdJwt({
      issuer: this.issuer,
      vct: this.vct,
      claims: claimsFromRecord(parsed.data, row.kind as DiplomaKind),
      signer: { kid: active.kid, sign: (data) => active.es256.sign(data), x5c: x5cOf(active.certificateChainDer) },
      ...(options?.holderPublicJwk ? { holderPublicJwk: options.holderPublicJwk } : {}),
      ...(entry ? { status: { idx: entry.index, uri: entry.tokenStatusUrl } } : {}),
    });
  }

  /** The holder's own download, under the rule of their PDF (anyone else: as for a diploma that does not exist). */
  async forHolder(actor: Pick<Actor, 'id'>, diplomaId: string): Promise<string> {
    const [account, row] = await Promise.all([findHolderAccount(this.db, actor.id), findDiploma(this.db, diplomaId)]);
    if (!account) throw new AppError('unauthenticated');
    if (!row) throw new AppError('not_found');
    authorize(holderPolicy.download(account, factsOf(row)));
    return this.issue(row.id);
  }

  /** `/.well-known/jwt-vc-issuer`: the issuer and every key that ever signed (retired ones with their retirement). */
  issuerMetadata() {
    return jwtVcIssuerMetadata(this.issuer, this.keys.jwks());
  }

  /** The Type Metadata served at the `vct` address. */
  typeMetadata() {
    return typeMetadata(this.issuer, { fr: this.config.issuer.name, en: this.config.issuer.nameEn });
  }
}
