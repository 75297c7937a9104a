import { isPublished, type GenerationType } from '@sceau/contracts';
import { buildOpenBadgeCredential, issuerProfileDocument, secureOpenBadgeCredential, verifyOpenBadgeCredential, type IssuerProfile, type VcVerification } from '@sceau/vc';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { diplomas, generations } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { translator } from '../../lib/i18n.ts';
import type { Actor } from '../../policies/actor.ts';
import { holderPolicy } from '../../policies/holder-policy.ts';
import { authorize } from '../../policies/policy.ts';
import { factsOf, findDiploma, findHolderAccount } from '../holder/holder-repository.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';
import { MinistryDid } from './ministry-did.ts';

/**
 * A published diploma as a W3C VC 2.0 / Open Badges 3.0 `OpenBadgeCredential` (ADR 0144), built
 * from its signed record (the same values as its PDF and QR), its revocation bit in the ministry's
 * status lists, and a Data Integrity proof `ecdsa-rdfc-2019` by the ministry's active key.
 */

/** The record fields the credential reads (the diploma's signed record, packages/credential). */
interface SignedRecord {
  candidate_code: string;
  last_name: string;
  middle_name?: string | null;
  first_name?: string | null;
  option: string;
  option_code: string;
  school?: string;
  session: string;
  session_year: number;
  percentage: number;
}

function recordOf(credential: Record<string, unknown>): SignedRecord {
  const record = credential.record as Partial<SignedRecord> | undefined;
  if (!record || typeof record.candidate_code !== 'string' || typeof record.last_name !== 'string' || typeof record.option !== 'string' || typeof record.session !== 'string') {
    throw new Error('the diploma’s stored credential has no full record');
  }
  return record as SignedRecord;
}

/** What the credentials need of the status lists (the credential-status module's service). */
export interface StatusLists {
  entryOf(statusIndex: number): { index: number; bitstringUrl: string };
  bitstringUrl(list: number): string;
  hasList(list: number): Promise<boolean>;
  bitstringCredential(list: number): Promise<{ credential: Record<string, unknown> }>;
}

export class VcService {
  readonly did: MinistryDid | null;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    keys: MinistryKeys | null,
    private readonly status: StatusLists,
  ) {
    this.did = keys ? new MinistryDid(config.publicUrl, keys) : null;
  }

  private get base(): string {
    return this.config.publicUrl.replace(/\/$/, '');
  }

  /** The ministry as an Open Badges 3.0 issuer Profile (its `did:web` as id). */
  profile(): IssuerProfile {
    const { issuer } = this.config;
    return {
      id: this.did?.did ?? '',
      name: issuer.name,
      url: issuer.website ?? this.base,
      email: issuer.email,
      phone: issuer.phone,
      image: issuer.emblemUrl ? new URL(issuer.emblemUrl, `${this.base}/`).href : null,
      ...(issuer.nameEn ? { description: issuer.nameEn } : {}),
    };
  }

  /** The issuer Profile as a JSON-LD document (`GET /credentials/issuer`). */
  profileDocument(): Record<string, unknown> {
    return issuerProfileDocument(this.profile());
  }

  /** The unsigned OpenBadgeCredential of a published diploma; `not_found` otherwise. */
  async unsigned(diplomaId: string): Promise<Record<string, unknown>> {
    if (!this.did) throw new AppError('service_unavailable');
    const [row] = await this.db
      .select({ credential: diplomas.credential, issuedAt: diplomas.issuedAt, statusIndex: diplomas.statusIndex, kind: generations.type, batchStatus: generations.status })
      .from(diplomas)
      .innerJoin(generations, eq(generations.id, diplomas.generationId))
      .where(eq(diplomas.id, diplomaId));
    if (!row || !isPublished(row.batchStatus)) throw new AppError('not_found');
    const record = recordOf(row.credential);
    const entry = this.status.entryOf(row.statusIndex);
    const kindName = translator('fr')(`messages:generation_types.${row.kind as GenerationType}`);
    const name = [record.last_name, record.middle_name, record.first_name].filter((part): part is string => typeof part === 'string' && part.length > 0).join(' ');
    return buildOpenBadgeCredential({
      id: `${this.base}/verify/${diplomaId}`,
      issuer: this.profile(),
      achievement: {
        id: `urn:sceau:achievement:${row.kind}:${record.session_year}:${record.option_code}`,
        kindName,
        kindCode: row.kind,
        option: record.option,
        session: record.session,
        criteria: `${kindName} : réussite à l'Examen d'État, session ${record.session}, option ${record.option}.`,
        language: 'fr',
      },
      holder: { name, identifier: record.candidate_code, school: record.school ?? null },
      percentage: typeof record.percentage === 'number' ? record.percentage : null,
      issuedAt: row.issuedAt,
      status: { index: entry.index, statusListCredential: entry.bitstringUrl },
    });
  }

  /** The signed OpenBadgeCredential of a published diploma (for the holder, the wallet offer…). */
  async issue(diplomaId: string): Promise<object> {
    const unsigned = await this.unsigned(diplomaId);
    const did = this.did!;
    return secureOpenBadgeCredential(unsigned, { signer: did.signer(), documentLoader: this.documentLoader() });
  }

  /** The holder's download (ADR 0144): under the rule of the diploma's PDF, like its full credential (ADR 0134). */
  async forHolder(actor: Actor, diplomaId: string): Promise<object> {
    const account = await findHolderAccount(this.db, actor.id);
    if (!account) throw new AppError('unauthenticated');
    const row = await findDiploma(this.db, diplomaId);
    if (!row) throw new AppError('not_found');
    authorize(holderPolicy.download(account, factsOf(row)));
    return this.issue(diplomaId);
  }

  /** Resolves the shipped contexts, the ministry's DID and its own status lists; never the network. */
  documentLoader() {
    if (!this.did) throw new AppError('service_unavailable');
    return this.did.documentLoader(async (url) => {
      const match = /\/credentials\/status\/(\d{1,6})$/.exec(url);
      if (!match || url !== this.status.bitstringUrl(Number(match[1]))) return null;
      const list = Number(match[1]);
      if (!(await this.status.hasList(list))) return null;
      return (await this.status.bitstringCredential(list)).credential;
    });
  }

  /** Verifies a credential against the ministry (its DID, its keys, its status lists): for the upload and the CLI. */
  verify(credential: unknown): Promise<VcVerification> {
    if (!this.did) throw new AppError('service_unavailable');
    return verifyOpenBadgeCredential(credential, { documentLoader: this.documentLoader(), trust: { issuers: [this.did.did] } });
  }
}
