import type { VerificationCheck, VerificationResultData, Verdict } from '@/features/verification/verification-api';

/** Answers of the verification API as the tests serve them (French texts, as the server sends them). */
export const DIPLOMA_ID = 'AbCdEfGhIjKlMnOpQrStUv';
export const TX_HASH = '0x5f2b8c1e9d3a47b6c0e18f2a9b7d3c4e5f60718293a4b5c6d7e8f90123456789';
export const CONTRACT = '0x9a3c0e2b7d14f5a6b8c9d0e1f2a3b4c5d6e7f809';

const passed = (name: string, title: string, code: string, message: string, details: Record<string, unknown> | null = null): VerificationCheck => ({
  name,
  status: 'passed',
  code,
  title,
  message,
  details,
});

export function authenticChecks(): VerificationCheck[] {
  return [
    passed('integrity', 'Intégrité', 'hashes_match', 'Les données du diplôme correspondent à son empreinte (targetHash) et sa preuve mène à la racine du lot.'),
    passed('issuer_signature', 'Signature du ministère', 'signature_valid', 'Signé avec la clé du ministère.'),
    passed('issuer_identity', "Identité de l'émetteur", 'issuer_matches', 'Émis par le ministère attendu, dans le registre du ministère sur la blockchain.'),
    {
      ...passed('anchored', 'Inscrit sur la blockchain', 'root_issued', 'Le lot du diplôme est inscrit sur la blockchain.', {
        chainId: 80002,
        contract: CONTRACT,
        root: '0xabc',
        txHash: TX_HASH,
        blockNumber: 1234567,
        timestamp: 1772445000,
      }),
      link: `https://amoy.polygonscan.com/tx/${TX_HASH}`,
    },
    passed('not_revoked', 'Non révoqué', 'not_revoked', "Le diplôme n'a pas été révoqué."),
  ];
}

export const DIPLOMA = {
  id: DIPLOMA_ID,
  last_name: 'MUKENDI',
  middle_name: 'KABONGO',
  first_name: 'Aline',
  birth_date: '2007-05-17',
  option: 'Scientifique',
  school: 'Institut Lumumba',
  centre: 'Kinshasa-Gombe',
  session: '2026',
  session_year: 2026,
  percentage: 65.5,
  issue_date: '2026-07-20',
  issuer: { id: 'minepst.gouv.cd', name: 'Ministère de l’Enseignement primaire, secondaire et technique' },
};

const LABELS: Record<Verdict, string> = {
  authentic: 'Authentique',
  revoked: 'Révoqué',
  altered: 'Modifié ou contrefait',
  unknown: 'Diplôme inconnu',
  unpublished: 'Pas encore publié',
  incomplete: "N'a pas pu être entièrement vérifié",
};

export function result(verdict: Verdict, overrides: Partial<VerificationResultData> = {}): { data: VerificationResultData } {
  let checks = authenticChecks();
  let diploma: VerificationResultData['diploma'] = DIPLOMA;
  if (verdict === 'revoked') {
    checks = checks.map((c) =>
      c.name === 'not_revoked'
        ? {
            ...c,
            status: 'failed',
            code: 'diploma_revoked',
            message: 'Ce diplôme a été révoqué.',
            details: { hash: '0x1', txHash: '0xfeed', timestamp: 1775000000, reason: 'Fraude constatée' },
          }
        : c,
    );
  }
  if (verdict === 'altered') {
    diploma = null;
    checks = checks.map((c) =>
      c.name === 'integrity'
        ? { ...c, status: 'failed', code: 'target_hash_mismatch', message: 'Une valeur du diplôme a été modifiée : ses données ne correspondent plus à son empreinte.' }
        : c.name === 'integrity' || c.name === 'issuer_signature'
          ? c
          : {
              ...c,
              status: 'not-checked',
              code: 'skipped_after_failure',
              message: 'Non vérifié : une autre vérification a déjà échoué ou n’a pas pu être faite.',
              details: null,
              link: undefined,
            },
    );
  }
  if (verdict === 'incomplete') {
    checks = checks.map((c) =>
      c.name === 'anchored' || c.name === 'not_revoked'
        ? { ...c, status: 'not-checked', code: 'chain_unreachable', message: "La blockchain n'a pas pu être jointe.", details: null, link: undefined }
        : c,
    );
  }
  if (verdict === 'unknown') diploma = null;
  return { data: { verdict, verdict_label: LABELS[verdict], source: 'link', checks, diploma, ...overrides } };
}
