import { DIPLOMA_ID_PATTERN as CREDENTIAL_DIPLOMA_ID_PATTERN, newDiplomaId } from '@sceau/credential';
import { describe, expect, it } from 'vitest';
import { DIPLOMA_ID_PATTERN } from './constants.ts';

describe('DIPLOMA_ID_PATTERN', () => {
  it('is the credential’s own, and accepts the ids it makes', () => {
    expect(DIPLOMA_ID_PATTERN.source).toBe(CREDENTIAL_DIPLOMA_ID_PATTERN.source);
    expect(DIPLOMA_ID_PATTERN.flags).toBe(CREDENTIAL_DIPLOMA_ID_PATTERN.flags);
    for (let i = 0; i < 20; i++) expect(newDiplomaId()).toMatch(DIPLOMA_ID_PATTERN);
  });
});
