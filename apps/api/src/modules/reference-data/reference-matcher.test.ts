import { describe, expect, it } from 'vitest';
import { codeKey, nameKey, ReferenceMatcher } from './reference-matcher.ts';

const KIN = 1;
const KAS = 2;
const schools = [
  { id: 1, code: 'KIN-LUK-C1-E1', name: 'Institut Saint-Joseph', educProvinceId: KIN },
  { id: 2, code: 'KIN-LUK-C1-E2', name: 'Lycée Bosangani', educProvinceId: KIN },
  { id: 3, code: 'KIN-LUK-C2-E1', name: 'Lycée Bosangani', educProvinceId: KIN },
  { id: 4, code: 'KCE-1-C1-E1', name: 'Institut Saint-Joseph', educProvinceId: KAS },
  { id: 5, code: 'KCE-1-C1-E2', name: 'Kananga I', educProvinceId: KAS },
  { id: 6, code: 'KIN-LUK-C1-E3', name: 'Complexe scolaire Mapendo', educProvinceId: KIN },
  { id: 7, code: 'KCE-1-C1-E3', name: 'Athénée de Kananga', educProvinceId: KAS },
];
const matcher = new ReferenceMatcher(schools);

describe('names and codes as compared', () => {
  it('ignores accents, case, punctuation and spacing, writes out abbreviations and Roman numerals', () => {
    expect(nameKey('Institut Saint-Joseph')).toBe(nameKey('INSTITUT ST JOSEPH'));
    expect(nameKey('Institut Saint-Joseph')).toBe(nameKey('institut  saint joseph'));
    expect(nameKey('Institut Saint-Joseph')).toBe(nameKey('Inst. St-Joseph'));
    expect(nameKey('Athénée de Kananga')).toBe(nameKey('ATHENEE  DE  KANANGA'));
    expect(nameKey('Kananga I')).toBe(nameKey('Kananga 1'));
    expect(nameKey('CS Mapendo')).toBe(nameKey('Complexe scolaire Mapendo'));
    expect(nameKey('Institut Saint-Joseph')).not.toBe(nameKey('Institut Saint-Jean'));
    expect(codeKey('KIN-LUK-C1-E1')).toBe(codeKey(' kin luk c1 e1 '));
    expect(codeKey('KIN-LUK-C1-E1')).toBe(codeKey('KINLUKC1E1'));
  });
});

describe('ReferenceMatcher', () => {
  it('finds a place by its code, however written', () => {
    expect(matcher.match('kin-luk-c1-e1', KAS)).toEqual({ found: schools[0] });
    expect(matcher.match('KIN LUK C1 E2')).toEqual({ found: schools[1] });
  });

  it('finds a place by its name, preferring the list’s province', () => {
    expect(matcher.match('INSTITUT ST JOSEPH', KIN)).toEqual({ found: schools[0] });
    expect(matcher.match('institut saint joseph', KAS)).toEqual({ found: schools[3] });
    expect(matcher.match('KANANGA 1', KAS)).toEqual({ found: schools[4] });
    // Of another province only: found, the caller says it lies elsewhere.
    expect(matcher.match('Athenee de Kananga', KIN)).toEqual({ found: schools[6] });
  });

  it('does not guess between places of one name: it names them', () => {
    expect(matcher.match('LYCEE BOSANGANI', KIN)).toEqual({ ambiguous: [schools[1], schools[2]] });
    // Without a province, the two Saint-Joseph are ambiguous too.
    expect(matcher.match('Institut Saint-Joseph')).toEqual({ ambiguous: [schools[0], schools[3]] });
  });

  it('suggests the closest names of the province for an unknown value, nearest first', () => {
    const typo = matcher.match('Institut Saint-Josef', KIN);
    expect(typo).toEqual({ unknown: true, suggestions: [schools[0]] });
    // A name written in part.
    const part = matcher.match('Mapendo', KIN);
    expect(part).toEqual({ unknown: true, suggestions: [schools[5]] });
    // Nothing close: no suggestion.
    expect(matcher.match('Université de Lubumbashi', KIN)).toEqual({ unknown: true, suggestions: [] });
    expect(matcher.match('', KIN)).toEqual({ unknown: true, suggestions: [] });
    // Only names of the list's province are suggested.
    expect(matcher.match('Athene de Kanaga', KIN)).toEqual({ unknown: true, suggestions: [] });
    expect(matcher.match('Athene de Kanaga', KAS)).toEqual({ unknown: true, suggestions: [schools[6]] });
  });

  it('finds options by code, name, or section and name', () => {
    const options = [
      { id: 1, code: 'BC', name: 'Biologie-Chimie', section: 'Scientifique' },
      { id: 2, code: 'MP', name: 'Mathématique-Physique', section: 'Scientifique' },
      { id: 3, code: 'LIT', name: 'Littéraire', section: 'Littéraire' },
    ];
    const byOption = new ReferenceMatcher(options, (o) => [`${o.section} ${o.name}`]);
    expect(byOption.match('Scientifique Biologie-Chimie')).toEqual({ found: options[0] });
    expect(byOption.match('SCIENTIFIQUE / BIOLOGIE CHIMIE')).toEqual({ found: options[0] });
    expect(byOption.match('bc')).toEqual({ found: options[0] });
    expect(byOption.match('Math-Physique')).toMatchObject({ unknown: true, suggestions: [options[1]] });
    expect(byOption.match('litteraire')).toEqual({ found: options[2] });
  });
});
