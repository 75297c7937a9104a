import { describe, expect, it } from 'vitest';
import { TEST_RECORDS } from '../scripts/test-data.ts';
import { newDiplomaId } from './ids.ts';
import { diplomaRecordSchema, isDiplomaId, parseDiplomaRecord } from './record.ts';

const base = TEST_RECORDS[0]!;
const reject = (patch: Record<string, unknown>) => diplomaRecordSchema.safeParse({ ...base, ...patch }).success;

describe('canonical record', () => {
  it('normalises names to NFC, trims and collapses spaces', () => {
    const r = parseDiplomaRecord({ ...base, last_name: ' Kabamba   Ngoy ', first_name: 'E\u0301lodie' });
    expect(r.last_name).toBe('Kabamba Ngoy');
    expect(r.first_name).toBe('Élodie');
    expect(r.first_name).toHaveLength(6);
  });

  it('refuses each malformed field', () => {
    expect(reject({ candidate_code: '1234567890123' })).toBe(false);
    expect(reject({ candidate_code: '1234567890123a' })).toBe(false);
    expect(reject({ birth_date: '2007-02-30' })).toBe(false);
    expect(reject({ issue_date: '20-08-2025' })).toBe(false);
    expect(reject({ gender: 'X' })).toBe(false);
    expect(reject({ percentage: 67.55 })).toBe(false);
    expect(reject({ percentage: 100.1 })).toBe(false);
    expect(reject({ percentage: -1 })).toBe(false);
    expect(reject({ percentage: '67.5' })).toBe(false);
    expect(reject({ last_name: '   ' })).toBe(false);
    expect(reject({ school_code: 'a b' })).toBe(false);
    expect(reject({ issuer: 'MINEPST.gouv.cd' })).toBe(false);
    expect(reject({ diploma_id: 'AAECAwQFBgcICQoLDA0ODx' })).toBe(false); // stray padding bits
    expect(reject({ extra: 'x' })).toBe(false);
    expect(reject({ middle_name: '' })).toBe(true);
  });

  it('diploma ids are 128 random bits in 22 base64url characters', () => {
    const ids = new Set(Array.from({ length: 1000 }, newDiplomaId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(isDiplomaId(id)).toBe(true);
  });
});
