import { DEFAULT_ROLE_PERMISSIONS, type GenerationStatus, type RoleName } from '@sceau/contracts';
import { describe, expect, it } from 'vitest';
import type { Actor } from './actor.ts';
import { diplomaPolicy } from './diploma-policy.ts';
import { generationPolicy, type BatchFacts } from './generation-policy.ts';
import { resultsPolicy } from './results-policy.ts';
import { NATIONAL, type Scope } from './scope.ts';
import { signaturePolicy } from './signature-policy.ts';
import { templatePolicy } from './template-policy.ts';
import { userPolicy, type AccountFacts } from './user-policy.ts';

// Two provinces; in the first, a centre with two schools.
const SCHOOL_A: Scope = { institutionId: 1, centreId: 10, educProvinceId: 100 };
const SCHOOL_A2: Scope = { institutionId: 2, centreId: 10, educProvinceId: 100 };
const PROVINCE_1: Scope = { institutionId: null, centreId: null, educProvinceId: 100 };
const SCHOOL_B: Scope = { institutionId: 3, centreId: 20, educProvinceId: 200 };

function actor(role: RoleName, scope: Scope = NATIONAL, id = 1): Actor {
  return { id, roles: [role], permissions: [...DEFAULT_ROLE_PERMISSIONS[role]], scope, ip: null, userAgent: null, locale: 'fr' };
}
const batch = (place: Scope, status: GenerationStatus = 'completed', extra: Partial<BatchFacts> = {}): BatchFacts => ({
  ...place,
  status,
  signatureStatus: status === 'completed' ? 'finished' : 'not_started',
  revokedAt: null,
  ...extra,
});
const account = (id: number, scope: Scope, roles: string[] = ['validateur']): AccountFacts => ({ id, scope, roles, archived: false });

describe('batch policy', () => {
  it('hides a batch outside the actor scope, whatever it holds', () => {
    expect(generationPolicy.view(actor('admin', SCHOOL_A), batch(SCHOOL_B))).toBe('hidden');
    expect(generationPolicy.revoke(actor('root', SCHOOL_A), batch(SCHOOL_B))).toBe('hidden');
    expect(generationPolicy.view(actor('admin', SCHOOL_A), batch(SCHOOL_A2))).toBe('hidden');
    expect(generationPolicy.view(actor('admin', PROVINCE_1), batch(SCHOOL_A2))).toBe(true);
    expect(generationPolicy.view(actor('admin'), batch(SCHOOL_B))).toBe(true);
    // A batch spanning several schools (no school of its own) is not a school's.
    expect(generationPolicy.view(actor('admin', SCHOOL_A), batch({ ...PROVINCE_1 }))).toBe('hidden');
  });

  it('needs the permission inside the scope, then the state', () => {
    expect(generationPolicy.revoke(actor('validateur', SCHOOL_A), batch(SCHOOL_A))).toBe('forbidden');
    expect(generationPolicy.revoke(actor('admin', SCHOOL_A), batch(SCHOOL_A))).toBe(true);
    expect(generationPolicy.revoke(actor('admin', SCHOOL_A), batch(SCHOOL_A, 'ready_for_signature'))).toBe('state');
    expect(generationPolicy.revoke(actor('admin'), batch(SCHOOL_A, 'completed', { revokedAt: new Date() }))).toBe('state');
    expect(generationPolicy.downloadAll(actor('admin'), batch(SCHOOL_A))).toBe('forbidden');
    expect(generationPolicy.downloadAll(actor('backoffice_manager'), batch(SCHOOL_A, 'pending_validation'))).toBe('state');
    expect(generationPolicy.launch(actor('admin'), batch(SCHOOL_A, 'ready_for_generation'))).toBe(true);
    expect(generationPolicy.launch(actor('admin'), batch(SCHOOL_A, 'completed'))).toBe('state');
    expect(generationPolicy.validatePhotos(actor('controleur'), batch(SCHOOL_A, 'pending_validation'))).toBe('forbidden');
    expect(generationPolicy.validateData(actor('controleur'), batch(SCHOOL_A, 'pending_validation'))).toBe(true);
    expect(generationPolicy.cancel(actor('admin'), batch(SCHOOL_A, 'in_progress'))).toBe('state');
    expect(generationPolicy.shareByEmail(actor('backoffice_manager'), batch(SCHOOL_A, 'ready_for_signature'))).toBe('state');
  });

  it('places a new batch only in a province of the actor scope', () => {
    expect(generationPolicy.create(actor('admin', SCHOOL_A), { ...SCHOOL_A, educProvinceId: 200 })).toEqual({ field: 'province_id', message: 'field.province_outside_scope' });
    expect(generationPolicy.create(actor('admin', SCHOOL_A), SCHOOL_A)).toBe(true);
    expect(generationPolicy.create(actor('validateur'), SCHOOL_A)).toBe('forbidden');
  });

  it('sends abilities that agree with each rule', () => {
    const abilities = generationPolicy.abilities(actor('admin', SCHOOL_A), batch(SCHOOL_A));
    expect(abilities).toMatchObject({ view: true, revoke: true, download_all: false, broadcast: false, launch: false });
    expect(Object.values(generationPolicy.abilities(actor('root', SCHOOL_A), batch(SCHOOL_B))).every((v) => v === false)).toBe(true);
  });
});

describe('diploma policy', () => {
  it('revokes only inside the scope, with diplomas.revoke, a published and unrevoked diploma', () => {
    const diploma = (place: Scope, revokedAt: Date | null = null, status: GenerationStatus = 'completed') => ({ batch: { ...place, status, revokedAt: null }, revokedAt });
    expect(diplomaPolicy.revoke(actor('admin', SCHOOL_A), diploma(SCHOOL_B))).toBe('hidden');
    expect(diplomaPolicy.revoke(actor('admin', SCHOOL_A), diploma(SCHOOL_A))).toBe(true);
    expect(diplomaPolicy.revoke(actor('validator'), diploma(SCHOOL_A))).toBe('forbidden');
    expect(diplomaPolicy.revoke(actor('admin'), diploma(SCHOOL_A, new Date()))).toBe('state');
    expect(diplomaPolicy.revoke(actor('admin'), diploma(SCHOOL_A, null, 'ready_for_signature'))).toBe('state');
  });
});

describe('account policy', () => {
  const schoolAdmin = actor('admin', SCHOOL_A, 7);

  it('sees and manages only accounts within its own scope', () => {
    expect(userPolicy.view(schoolAdmin, account(8, SCHOOL_A))).toBe(true);
    expect(userPolicy.edit(schoolAdmin, account(8, SCHOOL_A))).toBe(true);
    for (const outside of [NATIONAL, PROVINCE_1, SCHOOL_A2, SCHOOL_B]) {
      expect(userPolicy.view(schoolAdmin, account(9, outside))).toBe('hidden');
      expect(userPolicy.edit(schoolAdmin, account(9, outside))).toBe('hidden');
      expect(userPolicy.sendSignInLink(schoolAdmin, account(9, outside))).toBe('hidden');
      expect(userPolicy.resetPassword(schoolAdmin, account(9, outside))).toBe('hidden');
    }
    expect(userPolicy.edit(actor('admin', PROVINCE_1), account(9, SCHOOL_A2))).toBe(true);
  });

  it('never lets anyone change their own roles or scope, nor reset or link themselves', () => {
    const self = account(7, SCHOOL_A, ['admin']);
    expect(userPolicy.edit(schoolAdmin, self)).toBe(true);
    expect(userPolicy.changeAccess(schoolAdmin, self)).toEqual({ field: 'roles', message: 'field.cannot_change_own_access' });
    expect(userPolicy.changeAccess(actor('root', NATIONAL, 7), account(7, NATIONAL, ['root']))).toEqual({ field: 'roles', message: 'field.cannot_change_own_access' });
    expect(userPolicy.sendSignInLink(schoolAdmin, self)).toBe('forbidden');
    expect(userPolicy.resetPassword(schoolAdmin, self)).toBe('forbidden');
    expect(userPolicy.archive(schoolAdmin, self)).toBe('forbidden'); // admin holds no users.delete
    expect(userPolicy.archive(actor('root', NATIONAL, 7), account(7, NATIONAL, ['root']))).toEqual({ field: 'users', message: 'field.cannot_archive_self' });
  });

  it('grants only roles whose every permission the actor holds, root only by root', () => {
    const admin = actor('admin');
    const role = (name: RoleName) => ({ name, permissions: DEFAULT_ROLE_PERMISSIONS[name] });
    expect(userPolicy.grant(admin, role('validateur'))).toBe(true);
    expect(userPolicy.grant(admin, role('admin'))).toBe(true);
    expect(userPolicy.grant(admin, role('backoffice_manager'))).toEqual({ field: 'roles', message: 'field.role_not_grantable' });
    expect(userPolicy.grant(admin, role('root'))).toEqual({ field: 'roles', message: 'field.role_not_grantable' });
    expect(userPolicy.grant(actor('root'), role('root'))).toBe(true);
    expect(userPolicy.edit(admin, account(9, NATIONAL, ['root']))).toBe('role');
  });

  it('places accounts only inside the actor scope', () => {
    expect(userPolicy.place(schoolAdmin, SCHOOL_A)).toBe(true);
    expect(userPolicy.place(schoolAdmin, NATIONAL)).toEqual({ field: 'scope', message: 'field.scope_outside_yours' });
    expect(userPolicy.place(schoolAdmin, SCHOOL_B)).toEqual({ field: 'scope', message: 'field.scope_outside_yours' });
    expect(userPolicy.place(actor('admin', PROVINCE_1), SCHOOL_A2)).toBe(true);
  });
});

describe('national objects', () => {
  it('official signatures change only by a national account', () => {
    expect(signaturePolicy.replace(actor('admin', SCHOOL_A))).toBe('forbidden');
    expect(signaturePolicy.add(actor('admin', PROVINCE_1))).toBe('forbidden');
    expect(signaturePolicy.replace(actor('admin'))).toBe(true);
    expect(signaturePolicy.remove(actor('admin'))).toBe('forbidden');
    expect(signaturePolicy.remove(actor('root', SCHOOL_A))).toBe(true);
    expect(signaturePolicy.view(actor('admin', SCHOOL_A))).toBe(true);
  });

  it('a school template is used only inside its school scope; country templates by everyone', () => {
    expect(templatePolicy.use(actor('admin', SCHOOL_A), { ownerType: 'institution', school: SCHOOL_B })).toBe('hidden');
    expect(templatePolicy.use(actor('admin', SCHOOL_A), { ownerType: 'institution', school: SCHOOL_A })).toBe(true);
    expect(templatePolicy.use(actor('admin', SCHOOL_A), { ownerType: 'country', school: null })).toBe(true);
  });

  it('a result is read only inside the scope that holds its school', () => {
    expect(resultsPolicy.read(actor('admin', SCHOOL_A), SCHOOL_B)).toBe('hidden');
    expect(resultsPolicy.read(actor('admin', PROVINCE_1), SCHOOL_A2)).toBe(true);
    expect(resultsPolicy.read(actor('controleur'), SCHOOL_A)).toBe(true);
    expect(resultsPolicy.read(actor('validator', NATIONAL), SCHOOL_A)).toBe(true);
  });
});
