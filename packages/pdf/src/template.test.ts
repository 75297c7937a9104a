import { describe, expect, it } from 'vitest';
import { diplomeEtatTemplate } from './default-template.ts';
import { issuerNameFields, parseDiplomaTemplate } from './template.ts';

describe('the issuer heading (ADR 0129)', () => {
  it('cuts a long name in two balanced lines', () => {
    expect(issuerNameFields("Ministère de l'Éducation nationale et Nouvelle Citoyenneté")).toEqual({
      issuerName: "Ministère de l'Éducation nationale et Nouvelle Citoyenneté",
      issuerNameTop: "Ministère de l'Éducation",
      issuerNameBottom: 'nationale et Nouvelle Citoyenneté',
    });
    expect(issuerNameFields('  Ministère  de la Santé ')).toEqual({ issuerName: 'Ministère de la Santé', issuerNameTop: 'Ministère de la Santé', issuerNameBottom: '' });
    expect(issuerNameFields('')).toMatchObject({ issuerNameTop: '', issuerNameBottom: '' });
  });

  it('is printed by the national template from the fields, not written in it', () => {
    const template = parseDiplomaTemplate(diplomeEtatTemplate);
    expect(template.fields.map((f) => f.text)).toEqual(expect.arrayContaining(['{issuerNameTop}', '{issuerNameBottom}']));
    expect(JSON.stringify(template.background)).not.toMatch(/Ministère/);
  });
});
