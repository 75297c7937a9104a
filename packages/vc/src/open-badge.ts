import { CONTEXT_URLS } from './contexts.ts';
import { isoSeconds, statusEntry } from './status-list.ts';

/**
 * A diploma as an Open Badges 3.0 `OpenBadgeCredential` (a W3C VC 2.0, ADR 0144): the achievement
 * (the diploma's kind, option and session, `achievementType` Diploma, its criteria and the result
 * it describes), the holder (`credentialSubject`: name and candidate code), the ministry as the
 * issuer `Profile` (its `did:web`), `validFrom`, and its revocation bit in the ministry's
 * Bitstring Status List. Unsigned: `secureCredential` adds the proof.
 */

export interface IssuerProfile {
  /** The ministry's `did:web`. */
  id: string;
  name: string;
  /** The platform's public address. */
  url: string;
  email?: string | null;
  phone?: string | null;
  /** The emblem's address. */
  image?: string | null;
  description?: string | null;
}

export interface DiplomaAchievement {
  /** A stable address naming the achievement (kind, option, session). */
  id: string;
  /** The kind's label (e.g. « Diplôme d'État »). */
  kindName: string;
  /** The kind's code (e.g. EXETAT). */
  kindCode: string;
  option: string;
  session: string;
  /** What earns it, in words. */
  criteria: string;
  /** The issuing language (BCP 47), e.g. `fr`. */
  language: string;
}

export interface DiplomaHolder {
  /** Full name, as printed on the diploma. */
  name: string;
  /** The candidate's code (the national examination's identifier). */
  identifier: string;
  school?: string | null;
}

export interface DiplomaCredentialInput {
  /** The credential's id: the diploma's public verification address. */
  id: string;
  issuer: IssuerProfile;
  achievement: DiplomaAchievement;
  holder: DiplomaHolder;
  /** The result, in percent (e.g. 68.4); null when none is published. */
  percentage: number | null;
  issuedAt: Date;
  status: { index: number; statusListCredential: string };
}

export function issuerProfile(profile: IssuerProfile): Record<string, unknown> {
  return {
    id: profile.id,
    type: ['Profile'],
    name: profile.name,
    url: profile.url,
    ...(profile.email ? { email: profile.email } : {}),
    ...(profile.phone ? { phone: profile.phone } : {}),
    ...(profile.description ? { description: profile.description } : {}),
    ...(profile.image ? { image: { id: profile.image, type: 'Image' } } : {}),
  };
}

/** The issuer Profile served as a JSON-LD document of its own (the OB 3.0 profile address). */
export function issuerProfileDocument(profile: IssuerProfile): Record<string, unknown> {
  return { '@context': [CONTEXT_URLS.credentialsV2, CONTEXT_URLS.openBadgesV3], ...issuerProfile(profile) };
}

export function buildOpenBadgeCredential(input: DiplomaCredentialInput): Record<string, unknown> {
  const { achievement, holder } = input;
  const percentageId = `${achievement.id}#percentage`;
  const title = `${achievement.kindName} — ${achievement.option}`;
  return {
    '@context': [CONTEXT_URLS.credentialsV2, CONTEXT_URLS.openBadgesV3],
    id: input.id,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    name: title,
    issuer: issuerProfile(input.issuer),
    validFrom: isoSeconds(input.issuedAt),
    credentialSubject: {
      type: ['AchievementSubject'],
      name: holder.name,
      // OB 3.0 names the recipient by IdentityObjects (AchievementSubject has no name of its own):
      // the candidate code and the name as printed, in plain text (`name` stays for VC readers).
      identifier: [
        { type: 'IdentityObject', identityHash: holder.identifier, identityType: 'identifier', hashed: false },
        { type: 'IdentityObject', identityHash: holder.name, identityType: 'name', hashed: false },
      ],
      achievement: {
        id: achievement.id,
        type: ['Achievement'],
        achievementType: 'Diploma',
        name: title,
        description: `${achievement.kindName}, option ${achievement.option}, session ${achievement.session}`,
        criteria: { narrative: achievement.criteria },
        humanCode: achievement.kindCode,
        fieldOfStudy: achievement.option,
        inLanguage: achievement.language,
        resultDescription: [{ id: percentageId, type: ['ResultDescription'], name: 'Pourcentage / Percentage', resultType: 'Percent' }],
      },
      ...(input.percentage !== null ? { result: [{ type: ['Result'], resultDescription: percentageId, value: input.percentage.toFixed(1) }] } : {}),
      awardedDate: isoSeconds(input.issuedAt),
    },
    credentialStatus: statusEntry(input.status.statusListCredential, input.status.index),
  };
}
