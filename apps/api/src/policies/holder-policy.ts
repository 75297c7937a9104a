import { isPublished, SHARE_FIELDS, type GenerationStatus, type ShareField, type ShareState } from '@sceau/contracts';
import type { DisclosableClaim } from '@sceau/sd-jwt';
import { firstDenial, type Decision } from './policy.ts';

/**
 * The account asking, as the holder rules read it: its contacts and whether it proved them. No
 * role or permission appears here: a staff account is, on the holder's side, a person like any other.
 */
export interface HolderAccount {
  id: number;
  email: string | null;
  phone: string | null;
  /** The person proved they hold their contact (one-time code, Google) or staff created the account. */
  verified: boolean;
  archived: boolean;
}

/** A candidate's contacts as the ministry's list gave them (e-mail lower-cased, phone in E.164). */
export interface CandidateContacts {
  email: string | null;
  phone: string | null;
}

/** What the rules read of a diploma: its candidate's contacts, its batch's state, its revocation. */
export interface HolderDiplomaFacts {
  candidate: CandidateContacts;
  batch: { status: GenerationStatus; revokedAt: Date | null };
  revokedAt: Date | null;
}

/** What the rules read of a share link: its maker, and whether it still opens. */
export interface ShareFacts {
  userId: number;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** A share link with what it shows: the optional fields its maker chose (ADR 0152). */
export interface SharedFacts extends ShareFacts {
  disclosed: readonly string[];
}

/**
 * What each of the holder's choices governs (ADR 0152): the fields of the shared view and the
 * claims of the SD-JWT presentation it shows, or keeps back. The school brings its examination
 * centre and province with it (they would name it).
 */
const SHARE_FIELD_VIEW_KEYS: Record<ShareField, readonly string[]> = {
  birth_date: ['birth_date'],
  birth_place: ['birth_place'],
  school: ['school', 'school_code', 'centre', 'centre_code'],
  percentage: ['percentage'],
  photo: [],
};
const SHARE_FIELD_CLAIMS: Record<ShareField, readonly DisclosableClaim[]> = {
  birth_date: ['birthdate'],
  birth_place: ['place_of_birth'],
  school: ['school', 'school_code', 'centre', 'centre_code', 'province', 'province_code'],
  percentage: ['percentage'],
  photo: [],
};
/** Always shown by a share link: who holds it and what it is (the kind, session and serial are plain claims). */
const ALWAYS_SHARED_CLAIMS: readonly DisclosableClaim[] = ['family_name', 'middle_name', 'given_name', 'option', 'option_code'];

/** A share link's choice, read as the rules read it: what it shows and what it keeps back, in the one order. */
export function shareDisclosure(share: Pick<SharedFacts, 'disclosed'>): {
  disclosed: ShareField[];
  withheld: ShareField[];
  /** Fields of the public diploma view the link must not answer (absent, not emptied). */
  withheldKeys: ReadonlySet<string>;
  /** The personal claims an SD-JWT presentation of it discloses. */
  claims: DisclosableClaim[];
} {
  const disclosed = SHARE_FIELDS.filter((field) => share.disclosed.includes(field));
  const withheld = SHARE_FIELDS.filter((field) => !share.disclosed.includes(field));
  return {
    disclosed,
    withheld,
    withheldKeys: new Set(withheld.flatMap((field) => SHARE_FIELD_VIEW_KEYS[field])),
    claims: [...ALWAYS_SHARED_CLAIMS, ...disclosed.flatMap((field) => SHARE_FIELD_CLAIMS[field])],
  };
}

/**
 * The contacts that make an account a holder: those of a confirmed, live account. The list gives
 * phones in E.164 and e-mails lower-cased, as accounts store them (ADR 0129), so equality is the rule.
 */
export function holderContacts(account: HolderAccount): { email: string | null; phone: string | null } {
  if (!account.verified || account.archived) return { email: null, phone: null };
  return { email: account.email?.toLowerCase() ?? null, phone: account.phone };
}

/**
 * A diploma is its holder's when its candidate's e-mail or phone is the account's confirmed e-mail
 * or phone: the contact the ministry sends that diploma to (broadcasts, ADR 0080) is the one that
 * sees it here (ADR 0132).
 */
export function isHolderOf(account: HolderAccount, candidate: CandidateContacts): boolean {
  const mine = holderContacts(account);
  if (mine.email !== null && candidate.email !== null && candidate.email.toLowerCase() === mine.email) return true;
  return mine.phone !== null && candidate.phone !== null && candidate.phone === mine.phone;
}

/** A share link's own state: revoked first, then expired (at its expiry instant), else active. */
export function shareState(share: Pick<ShareFacts, 'expiresAt' | 'revokedAt'>, now: Date): ShareState {
  if (share.revokedAt !== null) return 'revoked';
  if (share.expiresAt !== null && share.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

const published = (diploma: HolderDiplomaFacts) => isPublished(diploma.batch.status);
const live = (diploma: HolderDiplomaFacts) => published(diploma) && diploma.revokedAt === null && diploma.batch.revokedAt === null;

/**
 * The holder's diplomas (ADR 0132). Another person's diploma, or one not yet published, is as
 * unknown as one that does not exist; a revoked diploma stays in its holder's list but is neither
 * downloaded nor shared.
 */
export const holderPolicy = {
  view: (account: HolderAccount, diploma: HolderDiplomaFacts) =>
    firstDenial(
      () => (isHolderOf(account, diploma.candidate) ? true : 'hidden'),
      () => (published(diploma) ? true : 'hidden'),
    ) satisfies Decision,
  download: (account: HolderAccount, diploma: HolderDiplomaFacts) =>
    firstDenial(
      () => holderPolicy.view(account, diploma),
      () => (live(diploma) ? true : 'state'),
    ) satisfies Decision,
  share: (account: HolderAccount, diploma: HolderDiplomaFacts) =>
    firstDenial(
      () => holderPolicy.view(account, diploma),
      () => (live(diploma) ? true : { field: 'diploma_id', message: 'field.share_link_diploma_revoked' }),
    ) satisfies Decision,
  /**
   * A wallet receives a diploma's credentials under its download's rule (ADR 0146): the holder
   * offers it, and the rule is read again when the wallet asks, so a revocation in between ends it.
   */
  walletOffer: (account: HolderAccount, diploma: HolderDiplomaFacts) => holderPolicy.download(account, diploma) satisfies Decision,
  /** A share link is managed (listed, revoked) by its maker only. */
  manageShare: (account: HolderAccount, share: ShareFacts) => (share.userId === account.id ? true : 'hidden') satisfies Decision,
  /**
   * A share link opens while it is neither revoked nor expired, its maker still holds the diploma,
   * and the diploma is still published (a revoked one is shown revoked: the verdict says so).
   */
  openShare: (maker: HolderAccount, share: ShareFacts, diploma: HolderDiplomaFacts, now: Date): Decision | 'revoked' | 'expired' => {
    const state = shareState(share, now);
    return state === 'active' ? holderPolicy.view(maker, diploma) : state;
  },
  /** The holder's photo behind a link: while it opens, and only if its maker chose to show it (ADR 0152). */
  sharedPhoto: (maker: HolderAccount, share: SharedFacts, diploma: HolderDiplomaFacts, now: Date): Decision | 'revoked' | 'expired' => {
    const opens = holderPolicy.openShare(maker, share, diploma, now);
    if (opens !== true) return opens;
    return share.disclosed.includes('photo') ? true : 'hidden';
  },
  /**
   * An SD-JWT presentation of the chosen claims behind a link (ADR 0152): while it opens, and while
   * the diploma is live (a revoked one is shown revoked, never handed out as a credential).
   */
  sharedPresentation: (maker: HolderAccount, share: SharedFacts, diploma: HolderDiplomaFacts, now: Date): Decision | 'revoked' | 'expired' => {
    const opens = holderPolicy.openShare(maker, share, diploma, now);
    if (opens !== true) return opens;
    return live(diploma) ? true : { field: 'token', message: 'field.share_link_presentation_revoked', conflict: true };
  },
};
