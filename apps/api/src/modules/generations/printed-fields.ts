// What a diploma prints, read from its credential: the render threads derive it themselves, so that
// the main thread only passes the credential's JSON text along (no parse, no re-serialisation there).
import { type DiplomaFields, issuerNameFields } from '@sceau/pdf';

const FRENCH_DATE = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const printedDates = new Map<string, string>();

/** `2007-01-09` → `9 janvier 2007` (cached: a batch prints a few thousand distinct dates at most). */
export function frenchDate(iso: string): string {
  let printed = printedDates.get(iso);
  if (printed === undefined) {
    const [y, m, d] = iso.split('-').map(Number);
    printed = FRENCH_DATE.format(new Date(Date.UTC(y!, m! - 1, d!)));
    if (printedDates.size >= 50_000) printedDates.clear();
    printedDates.set(iso, printed);
  }
  return printed;
}

/** "né" or "née" as the credential's gender agrees (M, F); "né(e)" for anything else. */
export function bornAgreement(gender: unknown): string {
  if (gender === 'F') return 'née';
  if (gender === 'M') return 'né';
  return 'né(e)';
}

/**
 * The printed fields of a diploma from its credential's record (packages/credential DiplomaRecord)
 * and the issuer's name it was signed with (ADR 0129: a reprint keeps it).
 */
export function printedFields(record: Record<string, unknown>, issuerName = ''): DiplomaFields {
  return {
    ...issuerNameFields(issuerName),
    name: [record.last_name, record.middle_name, record.first_name].filter(Boolean).join(' '),
    born: bornAgreement(record.gender),
    birthPlace: String(record.birth_place),
    birthDate: frenchDate(String(record.birth_date)),
    option: String(record.option),
    school: String(record.school),
    centre: String(record.centre),
    // The template prints "Session {session}".
    session: String(record.session_year),
    percentage: String(record.percentage).replace('.', ','),
    issueDate: frenchDate(String(record.issue_date)),
    // The serial (credential version 2); a diploma issued before serials prints its id, as it did.
    diplomaNumber: String(record.serial ?? record.diploma_id),
    province: String(record.educ_province),
    issuePlace: 'Kinshasa',
    candidateCode: String(record.candidate_code),
  };
}
