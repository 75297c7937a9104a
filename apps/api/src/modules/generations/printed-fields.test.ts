import { describe, expect, it } from 'vitest';
import { bornAgreement, printedFields } from './printed-fields.ts';

const record = {
  last_name: 'Ngalula',
  middle_name: 'Kabamba',
  first_name: 'Élodie',
  birth_place: 'Inongo',
  birth_date: '2007-03-14',
  option: 'Électricité',
  school: 'Institut Saint-Joseph',
  centre: 'Kinshasa-Gombe 04',
  session_year: 2026,
  percentage: 72.5,
  issue_date: '2026-08-15',
  diploma_id: 'DE-2026-0000001',
  educ_province: 'Kinshasa-Funa',
  candidate_code: '20260000000001',
};

describe('printedFields', () => {
  it('prints the issuer as the credential names it, on two lines (ADR 0129)', () => {
    const fields = printedFields(record, "Ministère de l'Éducation nationale et Nouvelle Citoyenneté");
    expect(fields).toMatchObject({
      issuerNameTop: "Ministère de l'Éducation",
      issuerNameBottom: 'nationale et Nouvelle Citoyenneté',
      name: 'Ngalula Kabamba Élodie',
      percentage: '72,5',
    });
    // A credential signed under another name keeps it on a reprint.
    expect(printedFields(record, 'Ministère de l’EPST')).toMatchObject({ issuerNameTop: 'Ministère de l’EPST', issuerNameBottom: '' });
  });

  it('agrees "né" with the candidate\'s gender', () => {
    expect(printedFields({ ...record, gender: 'F' }).born).toBe('née');
    expect(printedFields({ ...record, gender: 'M' }).born).toBe('né');
    expect(bornAgreement(undefined)).toBe('né(e)');
    expect(bornAgreement('X')).toBe('né(e)');
  });
});
