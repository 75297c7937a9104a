import { createHash, randomBytes } from 'node:crypto';
import { HOLDER_LIMITS, type HolderDiplomaView, type SharedDiplomaView, type ShareField, type ShareLinkView } from '@sceau/contracts';
import { diplomaRecordSchema } from '@sceau/credential';
import { presentDiplomaSdJwt } from '@sceau/sd-jwt';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { shareLinks } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { Actor } from '../../policies/actor.ts';
import { holderContacts, holderPolicy, shareDisclosure, shareState, type HolderAccount } from '../../policies/holder-policy.ts';
import { authorize, allowed, type Decision } from '../../policies/policy.ts';
import { recordAudit } from '../audit/audit-service.ts';
import { presentResult, type VerificationById } from '../verification/verification-service.ts';
import {
  countActiveShares,
  factsOf,
  findCredential,
  findDiploma,
  findDiplomasByContacts,
  findHolderAccount,
  findShare,
  listShares,
  type HolderDiplomaRow,
  type ShareRow,
} from './holder-repository.ts';

/** What the holder's side needs of verification: a diploma verified by id, as `/verify/{id}` does it. */
export interface DiplomaVerifier {
  verifyById(id: string): Promise<VerificationById>;
}

/** What the holder's side needs of the SD-JWT VC module: a diploma's SD-JWT VC, issued now. */
export interface SdJwtIssuer {
  issue(diplomaId: string): Promise<string>;
}

type Translate = Parameters<typeof presentResult>[1];

/** Why a share link no longer opens, named on `token` (the web shows it as the page's message). */
const REFUSAL = { unknown: 'field.share_link_unknown', revoked: 'field.share_link_revoked', expired: 'field.share_link_expired', hidden: 'field.share_link_unavailable' } as const;

const hashToken = (token: string) => createHash('sha256').update(`share:${token}`).digest('hex');

function presentShare(share: ShareRow, now = new Date()): ShareLinkView {
  return {
    id: share.id,
    diploma_id: share.diplomaId,
    label: share.label,
    created_at: share.createdAt.toISOString(),
    expires_at: share.expiresAt?.toISOString() ?? null,
    revoked_at: share.revokedAt?.toISOString() ?? null,
    state: shareState(share, now),
    opens: share.opens,
    last_opened_at: share.lastOpenedAt?.toISOString() ?? null,
    disclosed: shareDisclosure(share).disclosed,
  };
}

function presentDiploma(account: HolderAccount, row: HolderDiplomaRow): HolderDiplomaView {
  const facts = factsOf(row);
  const revoked = row.revokedAt !== null || row.batchRevokedAt !== null;
  return {
    id: row.id,
    candidate_code: row.candidateCode,
    last_name: row.lastName,
    middle_name: row.middleName,
    first_name: row.firstName,
    kind: row.kind,
    session: row.session,
    option: row.option,
    school: row.school,
    percentage: row.percentageTenths / 10,
    issued_at: row.issuedAt.toISOString(),
    status: revoked ? 'revoked' : 'valid',
    revocation_reason: revoked ? (row.revocationReason ?? row.batchRevocationReason) : null,
    abilities: {
      download: allowed(holderPolicy.download(account, facts)) && row.pdfKey !== null,
      share: allowed(holderPolicy.share(account, facts)),
    },
  };
}

/**
 * The holder's side (ADR 0132): a person's own diplomas, found by the confirmed contact of their
 * account, and the links they make to show one for a while. Every answer goes through the holder
 * policy; the permissions of a staff account play no part.
 */
export class HolderService {
  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
    /** Null when the platform runs without its identity (some tests): shared links then answer 503. */
    private readonly verifier: DiplomaVerifier | null,
    /** Null likewise: a link's SD-JWT presentation then answers 503. */
    private readonly sdJwt: SdJwtIssuer | null = null,
  ) {}

  private async account(actor: Pick<Actor, 'id'>): Promise<HolderAccount> {
    const account = await findHolderAccount(this.db, actor.id);
    if (!account) throw new AppError('unauthenticated');
    return account;
  }

  /** The account's published diplomas (revoked ones included, marked), newest first. */
  async diplomas(actor: Actor): Promise<HolderDiplomaView[]> {
    const account = await this.account(actor);
    const rows = await findDiplomasByContacts(this.db, holderContacts(account));
    return rows.filter((row) => allowed(holderPolicy.view(account, factsOf(row)))).map((row) => presentDiploma(account, row));
  }

  /**
   * One of the account's diplomas' full credential (ADR 0134): under the rule of its PDF, which
   * embeds it; anyone else is answered as for a diploma that does not exist.
   */
  async credential(actor: Actor, id: string): Promise<unknown> {
    const account = await this.account(actor);
    const row = await findDiploma(this.db, id);
    if (!row) throw new AppError('not_found');
    authorize(holderPolicy.download(account, factsOf(row)));
    const credential = await findCredential(this.db, row.id);
    if (credential === null) throw new AppError('not_found');
    return credential;
  }

  async shares(actor: Actor): Promise<ShareLinkView[]> {
    const now = new Date();
    return (await listShares(this.db, actor.id)).map((share) => presentShare(share, now));
  }

  /** A new link to one of the account's diplomas; its secret is in the answer's address only. */
  async createShare(
    actor: Actor,
    input: { diploma_id: string; days: number | null; label: string | null; disclose: ShareField[] },
  ): Promise<{ share: ShareLinkView; url: string }> {
    const account = await this.account(actor);
    const row = await findDiploma(this.db, input.diploma_id);
    if (!row) throw new AppError('not_found');
    authorize(holderPolicy.share(account, factsOf(row)));
    const token = randomBytes(32).toString('base64url');
    const share = await this.db.transaction(async (tx) => {
      // One creation at a time per maker and diploma, so the limit holds under concurrent requests.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`share:${account.id}:${row.id}`}))`);
      if ((await countActiveShares(tx, account.id, row.id)) >= HOLDER_LIMITS.activeSharesPerDiploma) {
        throw new AppError('conflict', { fields: { diploma_id: [{ key: 'field.share_link_limit', params: { max: HOLDER_LIMITS.activeSharesPerDiploma } }] } });
      }
      const expiresAt = input.days === null ? null : new Date(Date.now() + input.days * 86_400_000);
      const [created] = await tx
        .insert(shareLinks)
        .values({
          userId: account.id,
          diplomaId: row.id,
          tokenHash: hashToken(token),
          label: input.label,
          expiresAt,
          disclosed: shareDisclosure({ disclosed: input.disclose }).disclosed,
        })
        .returning();
      await recordAudit(
        tx,
        {
          action: 'diploma.share_created',
          subjectType: 'diploma',
          subjectId: row.id,
          details: { share: created!.id, days: input.days, expires_at: expiresAt?.toISOString() ?? null, disclosed: created!.disclosed },
        },
        actor,
      );
      return created!;
    });
    return { share: presentShare(share), url: this.sharedUrl(token) };
  }

  /** Revokes one of the account's links (again: nothing more happens). */
  async revokeShare(actor: Actor, id: number): Promise<ShareLinkView> {
    const account = await this.account(actor);
    const share = await findShare(this.db, { id });
    if (!share) throw new AppError('not_found');
    authorize(holderPolicy.manageShare(account, share));
    if (share.revokedAt) return presentShare(share);
    const revoked = await this.db.transaction(async (tx) => {
      const [row] = await tx.update(shareLinks).set({ revokedAt: new Date() }).where(eq(shareLinks.id, share.id)).returning();
      await recordAudit(tx, { action: 'diploma.share_revoked', subjectType: 'diploma', subjectId: share.diplomaId, details: { share: share.id } }, actor);
      return row!;
    });
    return presentShare(revoked);
  }

  /**
   * What a share link opens: the diploma verified now, only the fields its maker chose to show (the
   * others absent from the answer, named as kept back), and the link's expiry. The link is counted.
   * Unknown, revoked, expired, and no-longer-held links are refused (404), each saying which.
   */
  async openShare(token: string, t: Translate): Promise<SharedDiplomaView> {
    const { share, row, maker } = await this.liveShare(token);
    if (!this.verifier) throw new AppError('service_unavailable');
    const verification = await this.verifier.verifyById(row.id);
    const choice = shareDisclosure(share);
    const presented = presentResult(verification.result, t, { explorerTxUrl: null });
    let diploma: SharedDiplomaView['diploma'] = null;
    if (presented.diploma) {
      // Not the diploma's permanent id (the link's end is the view's end), nor a field kept back.
      const { id: _id, hidden_fields: _hidden, ...fields } = presented.diploma;
      diploma = Object.fromEntries(Object.entries(fields).filter(([key]) => !choice.withheldKeys.has(key))) as NonNullable<SharedDiplomaView['diploma']>;
      if (choice.disclosed.includes('birth_place')) {
        // Not among the public fields (ADR 0134): read from the record the diploma was issued with.
        const birthPlace = diplomaRecordSchema.safeParse(((await findCredential(this.db, row.id)) as { record?: unknown } | null)?.record);
        if (birthPlace.success) diploma.birth_place = birthPlace.data.birth_place;
      }
    }
    await this.db
      .update(shareLinks)
      .set({ opens: sql`${shareLinks.opens} + 1`, lastOpenedAt: new Date() })
      .where(eq(shareLinks.id, share.id));
    return {
      verdict: presented.verdict,
      verdict_label: presented.verdict_label,
      checks: presented.checks.map(({ name, status, title, message }) => ({ name, status, title, message })),
      diploma,
      diploma_kind: verification.kind ?? null,
      disclosed: choice.disclosed,
      withheld: choice.withheld,
      presentation: this.sdJwt !== null && allowed(holderPolicy.sharedPresentation(maker, share, factsOf(row), new Date()) as Decision),
      expires_at: share.expiresAt?.toISOString() ?? null,
      checked_at: new Date().toISOString(),
    };
  }

  /** The diploma a link shows the photo of, when it opens and its maker chose to show the photo. */
  async sharedPhotoDiploma(token: string): Promise<string> {
    const { share, row, maker } = await this.liveShare(token);
    this.authorizeShared(holderPolicy.sharedPhoto(maker, share, factsOf(row), new Date()));
    return row.id;
  }

  /**
   * An SD-JWT VC presentation of the diploma behind a link (ADR 0152): the ministry's credential
   * issued now, keeping only the disclosures of what the link shows; the plain claims always show.
   */
  async sharedPresentation(token: string): Promise<string> {
    const { share, row, maker } = await this.liveShare(token);
    this.authorizeShared(holderPolicy.sharedPresentation(maker, share, factsOf(row), new Date()));
    if (!this.sdJwt) throw new AppError('service_unavailable');
    return presentDiplomaSdJwt(await this.sdJwt.issue(row.id), shareDisclosure(share).claims);
  }

  /** The diploma a share link opens now, or the refusal that says why not. */
  async liveShare(token: string): Promise<{ share: ShareRow; row: HolderDiplomaRow; maker: HolderAccount }> {
    const share = await findShare(this.db, { tokenHash: hashToken(token) });
    if (!share) throw refused('unknown');
    const [maker, row] = await Promise.all([findHolderAccount(this.db, share.userId), findDiploma(this.db, share.diplomaId)]);
    if (!maker || !row) throw refused('unknown');
    const decision = holderPolicy.openShare(maker, share, factsOf(row), new Date());
    if (decision !== true) throw refused(decision === 'revoked' || decision === 'expired' ? decision : 'hidden');
    return { share, row, maker };
  }

  /** A shared link's decision once it opens: a field it keeps back is as absent as one that does not exist. */
  private authorizeShared(decision: Decision | 'revoked' | 'expired'): void {
    if (decision === 'revoked' || decision === 'expired') throw refused(decision);
    authorize(decision);
  }

  sharedUrl(token: string): string {
    return `${this.publicUrl}/shared/${token}`;
  }
}

function refused(why: keyof typeof REFUSAL): AppError {
  return new AppError('not_found', { fields: { token: [REFUSAL[why]] } });
}
