/**
 * Fixed inputs of the golden test vectors. The key below is a TEST-ONLY key, published on
 * purpose: never configure it anywhere but in tests.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '../src/bytes.ts';
import type { EcPrivateJwk } from '../src/keys.ts';
import type { IssuerInfo } from '../src/document.ts';
import type { DiplomaRecordInput } from '../src/record.ts';

/** TEST ONLY — this private key is public. */
export const TEST_ONLY_PRIVATE_JWK: EcPrivateJwk = {
  kty: 'EC',
  crv: 'P-256',
  x: 'mvAofpKBcu2OOLjZGw1Ai-s2EV03lTXUdfZ6eoRpSwo',
  y: 'dJgcdpOq-r76MbB7s5y5NfDO9XZzhUtCKeGtPliZKGU',
  d: '9GHZc3iEPHuHbDxEdHdc0xdqHmdkAac5XA4wbA3xsnA',
};

export const TEST_ISSUER: IssuerInfo = {
  id: 'minepst.gouv.cd',
  name: "Ministère de l'Enseignement Primaire, Secondaire et Technique",
  jwks_url: 'https://minepst.gouv.cd/.well-known/jwks.json',
  registry: { chain_id: 31337, contract: '0x5fbdb2315678afecb367f032d93f642f64180aa3' },
};

/** Salt of field `field` of record `index`: the first 16 bytes of SHA-256("sceau test salt <index> <field>"). */
export function testSalt(index: number, field: string): Uint8Array {
  return sha256(utf8ToBytes(`sceau test salt ${index} ${field}`)).slice(0, 16);
}

const common = {
  option: 'Biologie-Chimie',
  option_code: 'BC',
  school: 'Complexe Scolaire Mgr Kabangu',
  school_code: '3201045',
  centre: 'Centre Lycée Tuendelee',
  centre_code: '320118',
  educ_province: 'Kasaï-Oriental 2',
  educ_province_code: 'KOR2',
  session: 'Session 2025',
  session_year: 2025,
  issue_date: '2025-08-20',
  issuer: 'minepst.gouv.cd',
} as const;

export const TEST_RECORDS: DiplomaRecordInput[] = [
  {
    ...common,
    // The longest realistic names we expect: the QR budget is measured on this one.
    diploma_id: 'AAECAwQFBgcICQoLDA0ODw',
    candidate_code: '32011804512345',
    last_name: 'Mbuyamba-Tshibangu',
    middle_name: 'Kalombo wa Ilunga',
    first_name: 'Marie-Élodie Ntumba',
    birth_date: '2007-03-14',
    birth_place: 'Mbuji-Mayi',
    gender: 'F',
    percentage: 67.5,
  },
  {
    ...common,
    diploma_id: 'EBESExQVFhcYGRobHB0eHw',
    candidate_code: '01234567890123',
    // Decomposed accent (E + U+0301) and stray spaces: canonicalised to NFC, single spaces.
    last_name: '  Kabamba ',
    middle_name: 'Ngoy',
    first_name: 'E\u0301lodie',
    birth_date: '2006-11-02',
    birth_place: 'Lubumbashi',
    gender: 'F',
    option: 'Commerciale et Gestion',
    option_code: 'CG',
    percentage: 71,
  },
  {
    ...common,
    diploma_id: 'ICEiIyQlJicoKSorLC0uLw',
    candidate_code: '10293847561029',
    last_name: 'Tshisekedi',
    middle_name: '',
    first_name: 'Jean-Noël',
    birth_date: '2005-01-31',
    birth_place: 'Kananga',
    gender: 'M',
    percentage: 50,
  },
  {
    ...common,
    diploma_id: 'MDEyMzQ1Njc4OTo7PD0-Pw',
    candidate_code: '99887766554433',
    last_name: 'Mukendi',
    middle_name: 'Kasongo',
    first_name: 'Béatrice Ilunga',
    birth_date: '2007-12-25',
    birth_place: 'Kisangani',
    gender: 'F',
    school: 'Institut Saint-Joseph de Ndjili',
    school_code: '1104521',
    percentage: 88.9,
  },
  {
    ...common,
    diploma_id: 'QEFCQ0RFRkdISUpLTE1OTw',
    candidate_code: '55443322110099',
    last_name: 'Ilunga',
    middle_name: 'Mwamba',
    first_name: 'Gaëtan',
    birth_date: '2006-06-06',
    birth_place: 'Likasi',
    gender: 'M',
    percentage: 100,
  },
];

/** Fields hidden in the selective-disclosure vector. */
export const TEST_HIDDEN_FIELDS = ['birth_date', 'birth_place', 'percentage'] as const;
