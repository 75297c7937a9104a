import { DEFAULT_ROLE_PERMISSIONS, type RoleName } from '@sceau/contracts';
import { describe, expect, it } from 'vitest';
import type { Actor } from './actor.ts';
import { referenceDataPolicy } from './reference-data-policy.ts';
import { NATIONAL, type Scope } from './scope.ts';

const SCHOOL_A: Scope = { institutionId: 1, centreId: 10, educProvinceId: 100 };
const SCHOOL_A2: Scope = { institutionId: 2, centreId: 10, educProvinceId: 100 };
const CENTRE_A: Scope = { institutionId: null, centreId: 10, educProvinceId: 100 };
const PROVINCE_1: Scope = { institutionId: null, centreId: null, educProvinceId: 100 };
const SCHOOL_B: Scope = { institutionId: 3, centreId: 20, educProvinceId: 200 };

function actor(role: RoleName, scope: Scope = NATIONAL): Actor {
  return { id: 1, roles: [role], permissions: [...DEFAULT_ROLE_PERMISSIONS[role]], scope, ip: null, userAgent: null, locale: 'fr' };
}

describe('reference data policy', () => {
  it('offers a list’s schools and centres only within the scope (inside and outside it)', () => {
    expect(referenceDataPolicy.browsePlace(actor('admin', SCHOOL_A), SCHOOL_A)).toBe(true);
    expect(referenceDataPolicy.browsePlace(actor('admin', SCHOOL_A), SCHOOL_A2)).toBe('hidden');
    expect(referenceDataPolicy.browsePlace(actor('admin', SCHOOL_A), CENTRE_A)).toBe('hidden');
    expect(referenceDataPolicy.browsePlace(actor('admin', SCHOOL_A), SCHOOL_B)).toBe('hidden');
    expect(referenceDataPolicy.browsePlace(actor('admin', PROVINCE_1), SCHOOL_A2)).toBe(true);
    expect(referenceDataPolicy.browsePlace(actor('admin', PROVINCE_1), CENTRE_A)).toBe(true);
    expect(referenceDataPolicy.browsePlace(actor('admin', PROVINCE_1), SCHOOL_B)).toBe('hidden');
    expect(referenceDataPolicy.browsePlace(actor('admin'), SCHOOL_B)).toBe(true);
  });

  it('needs generation.create or reference.manage to browse them', () => {
    expect(referenceDataPolicy.browse(actor('validateur'))).toBe('forbidden');
    expect(referenceDataPolicy.browsePlace(actor('controleur', SCHOOL_A), SCHOOL_A)).toBe('forbidden');
    expect(referenceDataPolicy.browse(actor('admin', SCHOOL_A))).toBe(true);
  });

  it('lets only national accounts holding reference.manage (or root) change them', () => {
    expect(referenceDataPolicy.manage(actor('admin'))).toBe(true);
    expect(referenceDataPolicy.manage(actor('root'))).toBe(true);
    expect(referenceDataPolicy.manage(actor('root', SCHOOL_A))).toBe(true);
    expect(referenceDataPolicy.manage(actor('admin', SCHOOL_A))).toBe('forbidden');
    expect(referenceDataPolicy.manage(actor('admin', PROVINCE_1))).toBe('forbidden');
    expect(referenceDataPolicy.manage(actor('validateur'))).toBe('forbidden');
    expect(referenceDataPolicy.manage(actor('backoffice_manager'))).toBe('forbidden');
  });
});
