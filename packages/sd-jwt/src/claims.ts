/**
 * What a diploma's SD-JWT VC says: the claim names, which ones the holder may hide, and the Type
 * Metadata served at its `vct` URL. Names follow OpenID Connect's where one exists (family_name,
 * given_name, middle_name, birthdate, gender) so that wallets label them without our metadata.
 */

/** The media type and `typ` of an SD-JWT VC (SD-JWT VC draft 09 on). */
export const SD_JWT_VC_TYP = 'dc+sd-jwt';

/** The two kinds of published diploma (the issuing batches' `type`). */
export const DIPLOMA_KINDS = ['diplome_etat', 'attestation_reussite'] as const;
export type DiplomaKind = (typeof DIPLOMA_KINDS)[number];

/**
 * Personal claims: each one its own disclosure, so the holder decides per verifier. Absent from the
 * credential: the candidate code (a factor of the candidate check, never given away).
 */
export const DISCLOSABLE_CLAIMS = [
  'family_name',
  'middle_name',
  'given_name',
  'birthdate',
  'place_of_birth',
  'gender',
  'option',
  'option_code',
  'school',
  'school_code',
  'centre',
  'centre_code',
  'province',
  'province_code',
  'percentage',
] as const;
export type DisclosableClaim = (typeof DISCLOSABLE_CLAIMS)[number];

/** Non-personal claims: always visible (they say what the document is, not who holds it). */
export const PLAIN_CLAIMS = ['diploma_id', 'kind', 'session', 'session_year', 'serial', 'issue_date'] as const;
export type PlainClaim = (typeof PLAIN_CLAIMS)[number];

export interface DiplomaClaims {
  diploma_id: string;
  kind: DiplomaKind;
  session: string;
  session_year: number;
  /** Printed serial number (credential version 2); absent on diplomas issued before serials. */
  serial?: string;
  issue_date: string;
  family_name: string;
  /** Empty middle names are left out. */
  middle_name?: string;
  given_name: string;
  birthdate: string;
  place_of_birth: string;
  gender: 'M' | 'F';
  option: string;
  option_code: string;
  school: string;
  school_code: string;
  centre: string;
  centre_code: string;
  province: string;
  province_code: string;
  percentage: number;
}

/** The record of the platform's credential document (packages/credential), as the SD-JWT VC's claims. */
export interface CredentialRecordLike {
  diploma_id: string;
  serial?: string;
  last_name: string;
  middle_name: string;
  first_name: string;
  birth_date: string;
  birth_place: string;
  gender: 'M' | 'F';
  option: string;
  option_code: string;
  school: string;
  school_code: string;
  centre: string;
  centre_code: string;
  educ_province: string;
  educ_province_code: string;
  session: string;
  session_year: number;
  percentage: number;
  issue_date: string;
}

export function claimsFromRecord(record: CredentialRecordLike, kind: DiplomaKind): DiplomaClaims {
  return {
    diploma_id: record.diploma_id,
    kind,
    session: record.session,
    session_year: record.session_year,
    ...(record.serial ? { serial: record.serial } : {}),
    issue_date: record.issue_date,
    family_name: record.last_name,
    ...(record.middle_name ? { middle_name: record.middle_name } : {}),
    given_name: record.first_name,
    birthdate: record.birth_date,
    place_of_birth: record.birth_place,
    gender: record.gender,
    option: record.option,
    option_code: record.option_code,
    school: record.school,
    school_code: record.school_code,
    centre: record.centre,
    centre_code: record.centre_code,
    province: record.educ_province,
    province_code: record.educ_province_code,
    percentage: record.percentage,
  };
}

/**
 * The stable address of the diploma type (`vct`): `{issuer}/vct/diploma`, one type for both kinds
 * (the plain claim `kind` says which). Its Type Metadata is served there.
 */
export function vctUrl(issuer: string): string {
  return `${issuer.replace(/\/$/, '')}/vct/diploma`;
}

const LABELS: Record<DisclosableClaim | PlainClaim, { fr: string; en: string }> = {
  diploma_id: { fr: 'Identifiant du diplôme', en: 'Diploma identifier' },
  kind: { fr: 'Type de document', en: 'Document type' },
  session: { fr: 'Session', en: 'Session' },
  session_year: { fr: 'Année de la session', en: 'Session year' },
  serial: { fr: 'Numéro de série', en: 'Serial number' },
  issue_date: { fr: "Date d'émission", en: 'Issue date' },
  family_name: { fr: 'Nom', en: 'Family name' },
  middle_name: { fr: 'Postnom', en: 'Middle name' },
  given_name: { fr: 'Prénom', en: 'Given name' },
  birthdate: { fr: 'Date de naissance', en: 'Date of birth' },
  place_of_birth: { fr: 'Lieu de naissance', en: 'Place of birth' },
  gender: { fr: 'Sexe', en: 'Sex' },
  option: { fr: 'Option', en: 'Track' },
  option_code: { fr: "Code de l'option", en: 'Track code' },
  school: { fr: 'École', en: 'School' },
  school_code: { fr: "Code de l'école", en: 'School code' },
  centre: { fr: "Centre d'examen", en: 'Examination centre' },
  centre_code: { fr: 'Code du centre', en: 'Centre code' },
  province: { fr: 'Province éducationnelle', en: 'Education province' },
  province_code: { fr: 'Code de la province', en: 'Province code' },
  percentage: { fr: 'Pourcentage', en: 'Percentage' },
};

const KIND_NAMES: Record<DiplomaKind, { fr: string; en: string }> = {
  diplome_etat: { fr: "Diplôme d'État", en: 'State Diploma' },
  attestation_reussite: { fr: 'Attestation de réussite', en: 'Certificate of success' },
};

/**
 * The SD-JWT VC Type Metadata of the diploma type (draft 09 §6): names and claim labels in French
 * and English, and which claims are always or never selectively disclosed.
 */
export function typeMetadata(issuer: string, issuerName: { fr: string; en: string }) {
  const names = { fr: 'Diplôme', en: 'Diploma' };
  const kinds = Object.values(KIND_NAMES);
  const sd = (claim: DisclosableClaim | PlainClaim) => ((DISCLOSABLE_CLAIMS as readonly string[]).includes(claim) ? 'always' : 'never');
  return {
    vct: vctUrl(issuer),
    name: `${names.en} (${issuerName.en})`,
    description: `${kinds.map((kind) => kind.en).join(' or ')} issued by ${issuerName.en}; each personal claim is disclosed only if its holder chooses to.`,
    display: [
      { lang: 'fr', locale: 'fr', name: names.fr, description: `${names.fr} délivré par ${issuerName.fr}` },
      { lang: 'en', locale: 'en', name: names.en, description: `${names.en} issued by ${issuerName.en}` },
    ],
    claims: [...PLAIN_CLAIMS, ...DISCLOSABLE_CLAIMS].map((claim) => ({
      path: [claim],
      display: [
        { lang: 'fr', locale: 'fr', label: LABELS[claim].fr },
        { lang: 'en', locale: 'en', label: LABELS[claim].en },
      ],
      sd: sd(claim),
    })),
  };
}

/** Issuer metadata at `/.well-known/jwt-vc-issuer` (SD-JWT VC draft §5): the issuer and its keys. */
export function jwtVcIssuerMetadata(issuer: string, jwks: { keys: readonly object[] }) {
  return { issuer: issuer.replace(/\/$/, ''), jwks: { keys: jwks.keys } };
}
