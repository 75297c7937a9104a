// English and French texts of the checks, codes and verdicts: the independent verifier prints them,
// and the API and web catalogues take the same wording (README.md lists them with their keys).
import type { CheckCode, CheckName, CheckStatus, Verdict } from './types.ts';

export type Lang = 'en' | 'fr';
type Text = Record<Lang, string>;

export const CHECK_TITLES: Record<CheckName, Text> = {
  integrity: { en: 'Integrity', fr: 'Intégrité' },
  issuer_signature: { en: 'Ministry signature', fr: 'Signature du ministère' },
  issuer_identity: { en: 'Issuer identity', fr: "Identité de l'émetteur" },
  anchored: { en: 'Recorded on the blockchain', fr: 'Inscrit sur la blockchain' },
  not_revoked: { en: 'Not revoked', fr: 'Non révoqué' },
  pdf_signature: { en: 'PDF signature', fr: 'Signature du PDF' },
};

export const STATUS_TEXTS: Record<CheckStatus, Text> = {
  passed: { en: 'passed', fr: 'réussi' },
  failed: { en: 'FAILED', fr: 'ÉCHEC' },
  // A check not made is never "passed": the report says it could not be made (ADR 0133).
  'not-checked': { en: 'could not check', fr: 'pas pu être vérifié' },
};

/** The CLI's own lines around the checks (the issuer checked, the trust list used). */
export const REPORT_TEXTS = {
  title: { en: 'Sceau diploma verification', fr: "Vérification d'un diplôme Sceau" },
  issuerChecked: { en: 'Issuer checked', fr: 'Émetteur vérifié' },
  issuerExpected: { en: 'Issuer expected', fr: 'Émetteur attendu' },
  issuerFound: { en: 'Issuer found', fr: 'Émetteur trouvé' },
  issuerDeclared: { en: 'Issuer (as the diploma declares it, not pinned)', fr: 'Émetteur (tel que le diplôme le déclare, non épinglé)' },
  noIssuerPinned: { en: 'no issuer pinned', fr: 'aucun émetteur épinglé' },
  development: { en: 'development keys', fr: 'clés de développement' },
  trustList: { en: 'trust list', fr: 'liste de confiance' },
  keysGiven: { en: 'keys given with --jwks', fr: 'clés données par --jwks' },
  registry: { en: 'registry', fr: 'registre' },
  diploma: { en: 'Diploma', fr: 'Diplôme' },
  issuer: { en: 'Issuer', fr: 'Émetteur' },
  fields: { en: 'fields', fr: 'champs' },
  reason: { en: 'reason', fr: 'motif' },
  born: { en: 'born', fr: 'né(e) le' },
  issued: { en: 'issued', fr: 'délivré le' },
  verdict: { en: 'Verdict', fr: 'Verdict' },
  key: { en: 'key', fr: 'clé' },
  retiredOn: { en: 'retired', fr: 'retirée le' },
  signedOn: { en: 'signed', fr: 'signé le' },
  byTimestamp: { en: 'by its signature timestamp', fr: 'selon son horodatage de signature' },
  byAnchoring: { en: 'by its batch anchoring on the blockchain', fr: "selon l'inscription de son lot sur la blockchain" },
  byDocumentTimestamp: { en: 'by a document timestamp over it', fr: 'selon un horodatage du document qui la couvre' },
  byRecord: {
    en: "by the ministry's record of this file, dated by its batch anchoring",
    fr: "selon l'enregistrement de ce fichier par le ministère, daté par l'inscription de son lot",
  },
  compromisedOn: { en: 'compromised since', fr: 'compromise depuis le' },
  laterRevisions: { en: 'revisions added after signing', fr: 'révisions ajoutées après la signature' },
  validationData: { en: 'validation data (DSS)', fr: 'données de validation (DSS)' },
  documentTimestamp: { en: 'document timestamp', fr: 'horodatage du document' },
  untrustedTsa: { en: 'TSA not trusted', fr: "autorité d'horodatage non reconnue" },
} satisfies Record<string, Text>;

export const CODE_TEXTS: Record<CheckCode, Text> = {
  hashes_match: {
    en: "The diploma's data match its fingerprint (targetHash) and its proof leads to the batch root.",
    fr: 'Les données du diplôme correspondent à son empreinte (targetHash) et sa preuve mène à la racine du lot.',
  },
  target_hash_mismatch: {
    en: 'A value of the diploma was changed: its data no longer match its fingerprint.',
    fr: 'Une valeur du diplôme a été modifiée : ses données ne correspondent plus à son empreinte.',
  },
  merkle_proof_mismatch: {
    en: 'The proof linking the diploma to its batch was changed.',
    fr: 'La preuve qui rattache le diplôme à son lot a été modifiée.',
  },
  malformed_credential: {
    en: "The diploma's data are damaged or not in the expected format.",
    fr: 'Les données du diplôme sont endommagées ou ne sont pas au format attendu.',
  },
  credential_missing: {
    en: "The PDF does not contain the diploma's data.",
    fr: 'Le PDF ne contient pas les données du diplôme.',
  },
  qr_credential_mismatch: {
    en: "The QR code and the diploma's data do not describe the same diploma.",
    fr: 'Le code QR et les données du diplôme ne décrivent pas le même diplôme.',
  },
  not_a_diploma: {
    en: 'This is not a diploma issued by the platform.',
    fr: "Ce document n'est pas un diplôme émis par la plateforme.",
  },
  diploma_not_found: { en: 'No diploma has this number.', fr: 'Aucun diplôme ne porte ce numéro.' },
  credential_unavailable: {
    en: "The diploma's full data could not be obtained: its fingerprint could not be recomputed.",
    fr: "Les données complètes du diplôme n'ont pas pu être obtenues : son empreinte n'a pas pu être recalculée.",
  },
  signature_valid: { en: "Signed with the ministry's key.", fr: 'Signé avec la clé du ministère.' },
  unknown_key: {
    en: 'Signed with a key the ministry does not publish.',
    fr: 'Signé avec une clé que le ministère ne publie pas.',
  },
  bad_signature: {
    en: "The ministry's signature does not match: the content was changed or forged.",
    fr: 'La signature du ministère ne correspond pas : le contenu a été modifié ou contrefait.',
  },
  qr_malformed: { en: 'The QR code is damaged or was tampered with.', fr: 'Le code QR est endommagé ou a été modifié.' },
  key_retired: {
    en: 'Signed with a key the ministry had retired, after its retirement: a forgery.',
    fr: 'Signé avec une clé que le ministère avait retirée, après son retrait : un faux.',
  },
  key_compromised: {
    en: 'Signed with a key the ministry declared compromised, after the compromise: to be issued again.',
    fr: 'Signé avec une clé que le ministère a déclarée compromise, après la compromission : à délivrer à nouveau.',
  },
  signing_time_unknown: {
    en: 'Signed with a key the ministry has retired, and when it was signed could not be established.',
    fr: "Signé avec une clé que le ministère a retirée, et la date de la signature n'a pas pu être établie.",
  },
  jwks_unavailable: {
    en: "The ministry's published keys could not be obtained.",
    fr: "Les clés publiées du ministère n'ont pas pu être obtenues.",
  },
  signature_absent: {
    en: "The diploma's data carry no ministry signature.",
    fr: 'Les données du diplôme ne portent pas de signature du ministère.',
  },
  skipped_after_failure: {
    en: 'Not checked: another check already failed or could not be made.',
    fr: "Non vérifié : une autre vérification a déjà échoué ou n'a pas pu être faite.",
  },
  issuer_matches: {
    en: "Issued by the expected ministry, in the ministry's blockchain registry.",
    fr: 'Émis par le ministère attendu, dans le registre du ministère sur la blockchain.',
  },
  issuer_key: { en: 'Signed with a key the ministry publishes.', fr: 'Signé avec une clé publiée par le ministère.' },
  issuer_mismatch: { en: 'Issued in the name of another issuer.', fr: "Émis au nom d'un autre émetteur." },
  jwks_url_mismatch: {
    en: "Refers to keys other than the ministry's.",
    fr: "Renvoie à d'autres clés que celles du ministère.",
  },
  registry_mismatch: {
    en: "Refers to a blockchain registry other than the ministry's.",
    fr: 'Renvoie à un autre registre sur la blockchain que celui du ministère.',
  },
  issuer_unconfirmed: {
    en: "The keys are not published on the issuer's own domain: pass the issuer's keys (--jwks) to trust them.",
    fr: "Les clés ne sont pas publiées sur le domaine de l'émetteur : indiquez ses clés (--jwks) pour leur faire confiance.",
  },
  no_trusted_issuer: {
    en: "No issuer is pinned: the verifier's trust list is empty, so the issuer could not be checked.",
    fr: "Aucun émetteur n'est épinglé : la liste de confiance du vérificateur est vide, l'émetteur n'a pas pu être vérifié.",
  },
  root_issued: { en: "The diploma's batch is recorded on the blockchain.", fr: 'Le lot du diplôme est inscrit sur la blockchain.' },
  root_not_issued: {
    en: "The diploma's batch is not recorded on the blockchain.",
    fr: "Le lot du diplôme n'est pas inscrit sur la blockchain.",
  },
  not_yet_published: {
    en: 'Not yet published: its batch has not been signed yet.',
    fr: "Pas encore publié : son lot n'a pas encore été signé.",
  },
  chain_unreachable: { en: 'The blockchain could not be reached.', fr: "La blockchain n'a pas pu être jointe." },
  chain_error: { en: 'The blockchain could not be queried.', fr: "La blockchain n'a pas pu être interrogée." },
  proof_unavailable: {
    en: 'The proof needed to find the diploma on the blockchain is not available.',
    fr: "La preuve nécessaire pour retrouver le diplôme sur la blockchain n'est pas disponible.",
  },
  registry_unknown: {
    en: 'No blockchain registry is known to look the diploma up.',
    fr: "Aucun registre sur la blockchain n'est connu pour y chercher le diplôme.",
  },
  batch_unchecked: {
    en: "Only the diploma itself was found not revoked: the QR code does not name its batch, so a revocation of the whole batch could not be checked (verify the PDF or the diploma's link).",
    fr: "Seul le diplôme lui-même a été trouvé non révoqué : le QR code ne nomme pas son lot, la révocation du lot entier n'a donc pas pu être vérifiée (vérifiez le PDF ou le lien du diplôme).",
  },
  not_revoked: { en: 'The diploma has not been revoked.', fr: "Le diplôme n'a pas été révoqué." },
  diploma_revoked: { en: 'This diploma has been revoked.', fr: 'Ce diplôme a été révoqué.' },
  batch_revoked: { en: "The diploma's whole batch has been revoked.", fr: 'Tout le lot du diplôme a été révoqué.' },
  pdf_signature_valid: {
    en: "The PDF carries the ministry's signature and has not changed since it was signed.",
    fr: "Le PDF porte la signature du ministère et n'a pas changé depuis sa signature.",
  },
  pdf_signature_valid_ltv: {
    en: "The PDF carries the ministry's signature; only validation data (certificates, revocation data, document timestamps) were added after it was signed.",
    fr: 'Le PDF porte la signature du ministère ; seules des données de validation (certificats, révocations, horodatages du document) ont été ajoutées après sa signature.',
  },
  pdf_unsigned: { en: 'The PDF is not signed.', fr: "Le PDF n'est pas signé." },
  pdf_modified: { en: 'The PDF was changed after it was signed.', fr: 'Le PDF a été modifié après sa signature.' },
  pdf_changed_after_signing: {
    en: 'Content was added to the PDF after it was signed.',
    fr: 'Du contenu a été ajouté au PDF après sa signature.',
  },
  pdf_bad_signature: { en: "The PDF's signature is invalid.", fr: 'La signature du PDF est invalide.' },
  pdf_unknown_signer: {
    en: 'The PDF was signed by someone other than the ministry.',
    fr: "Le PDF a été signé par quelqu'un d'autre que le ministère.",
  },
  pdf_key_retired: {
    en: 'The PDF was signed with a key the ministry had retired, after its retirement: a forgery.',
    fr: 'Le PDF a été signé avec une clé que le ministère avait retirée, après son retrait : un faux.',
  },
  pdf_key_compromised: {
    en: 'The PDF was signed with a key the ministry declared compromised, after the compromise: to be issued again.',
    fr: 'Le PDF a été signé avec une clé que le ministère a déclarée compromise, après la compromission : à délivrer à nouveau.',
  },
  pdf_not_issued: {
    en: 'The PDF was signed with a key the ministry has retired, and the ministry never issued this file: a forgery.',
    fr: "Le PDF a été signé avec une clé que le ministère a retirée, et le ministère n'a jamais délivré ce fichier : un faux.",
  },
  pdf_signing_time_unknown: {
    en: 'The PDF was signed with a key the ministry has retired, and when it was signed could not be established.',
    fr: "Le PDF a été signé avec une clé que le ministère a retirée, et la date de la signature n'a pas pu être établie.",
  },
};

export const VERDICT_TEXTS: Record<Verdict, Text> = {
  authentic: { en: 'Authentic', fr: 'Authentique' },
  revoked: { en: 'Revoked', fr: 'Révoqué' },
  altered: { en: 'Altered or forged', fr: 'Modifié ou contrefait' },
  unknown: { en: 'Unknown diploma', fr: 'Diplôme inconnu' },
  unpublished: { en: 'Not yet published', fr: 'Pas encore publié' },
  incomplete: { en: 'Could not be fully checked', fr: "N'a pas pu être entièrement vérifié" },
};
