import { describe, expect, it } from 'vitest';
import { holderContacts, holderPolicy, isHolderOf, shareDisclosure, type HolderAccount, type HolderDiplomaFacts } from './holder-policy.ts';

const person = (extra: Partial<HolderAccount> = {}): HolderAccount => ({ id: 7, email: 'amani@example.cd', phone: '+243812345678', verified: true, archived: false, ...extra });
const diploma = (candidate: HolderDiplomaFacts['candidate'], extra: Partial<HolderDiplomaFacts> = {}): HolderDiplomaFacts => ({
  candidate,
  batch: { status: 'completed', revokedAt: null },
  revokedAt: null,
  ...extra,
});
const now = new Date('2026-11-25T12:00:00Z');

describe('holder policy: whose diploma it is', () => {
  it("is the holder's when the candidate's phone (E.164) or e-mail is the account's", () => {
    expect(isHolderOf(person(), { email: null, phone: '+243812345678' })).toBe(true);
    expect(isHolderOf(person(), { email: 'AMANI@example.cd', phone: null })).toBe(true);
    expect(isHolderOf(person({ email: 'Amani@Example.cd' }), { email: 'amani@example.cd', phone: null })).toBe(true);
  });

  it("is another person's otherwise, and nobody's when either side has no contact", () => {
    expect(isHolderOf(person(), { email: 'other@example.cd', phone: '+243812345679' })).toBe(false);
    expect(isHolderOf(person(), { email: null, phone: null })).toBe(false);
    expect(isHolderOf(person({ email: null, phone: null }), { email: null, phone: null })).toBe(false);
    // A national number is not the account's E.164 one: the list import stores E.164 (ADR 0129).
    expect(isHolderOf(person(), { email: null, phone: '0812345678' })).toBe(false);
  });

  it('needs a confirmed, live account: an unconfirmed or archived one holds nothing', () => {
    expect(holderContacts(person({ verified: false }))).toEqual({ email: null, phone: null });
    expect(isHolderOf(person({ verified: false }), { email: 'amani@example.cd', phone: '+243812345678' })).toBe(false);
    expect(isHolderOf(person({ archived: true }), { email: 'amani@example.cd', phone: '+243812345678' })).toBe(false);
  });
});

describe('holder policy: what the holder may do', () => {
  const mine = { email: null, phone: '+243812345678' };

  it("hides another person's diploma and an unpublished one as if they did not exist", () => {
    expect(holderPolicy.view(person(), diploma({ email: 'x@example.cd', phone: null }))).toBe('hidden');
    expect(holderPolicy.view(person(), diploma(mine, { batch: { status: 'ready_for_signature', revokedAt: null } }))).toBe('hidden');
    expect(holderPolicy.download(person(), diploma({ email: 'x@example.cd', phone: null }))).toBe('hidden');
    expect(holderPolicy.share(person(), diploma({ email: 'x@example.cd', phone: null }))).toBe('hidden');
  });

  it('shows a revoked diploma to its holder, but neither downloads nor shares it', () => {
    const revoked = diploma(mine, { revokedAt: now });
    const batchRevoked = diploma(mine, { batch: { status: 'completed', revokedAt: now } });
    expect(holderPolicy.view(person(), revoked)).toBe(true);
    expect(holderPolicy.download(person(), revoked)).toBe('state');
    expect(holderPolicy.share(person(), batchRevoked)).toEqual({ field: 'diploma_id', message: 'field.share_link_diploma_revoked' });
    expect(holderPolicy.share(person(), diploma(mine))).toBe(true);
  });

  it('lets only its maker manage a share link', () => {
    expect(holderPolicy.manageShare(person(), { userId: 7, expiresAt: null, revokedAt: null })).toBe(true);
    expect(holderPolicy.manageShare(person({ id: 8 }), { userId: 7, expiresAt: null, revokedAt: null })).toBe('hidden');
  });

  it('opens a link until it is revoked or expires, and only while its maker holds the diploma', () => {
    const live = { userId: 7, expiresAt: new Date(now.getTime() + 1000), revokedAt: null };
    expect(holderPolicy.openShare(person(), live, diploma(mine), now)).toBe(true);
    expect(holderPolicy.openShare(person(), { ...live, expiresAt: null }, diploma(mine), now)).toBe(true);
    expect(holderPolicy.openShare(person(), { ...live, expiresAt: now }, diploma(mine), now)).toBe('expired');
    expect(holderPolicy.openShare(person(), { ...live, revokedAt: now, expiresAt: now }, diploma(mine), now)).toBe('revoked');
    // The maker's phone changed since: the link goes with the diploma's holding.
    expect(holderPolicy.openShare(person({ phone: '+243899999999' }), live, diploma(mine), now)).toBe('hidden');
  });

  it('shows behind a link only what its maker chose: the photo if chosen, the chosen claims, never a field kept back', () => {
    const link = { userId: 7, expiresAt: null, revokedAt: null, disclosed: ['birth_date', 'percentage'] };
    expect(holderPolicy.sharedPhoto(person(), link, diploma(mine), now)).toBe('hidden');
    expect(holderPolicy.sharedPhoto(person(), { ...link, disclosed: ['photo'] }, diploma(mine), now)).toBe(true);
    expect(holderPolicy.sharedPhoto(person(), { ...link, disclosed: ['photo'], revokedAt: now }, diploma(mine), now)).toBe('revoked');
    const choice = shareDisclosure(link);
    expect(choice.disclosed).toEqual(['birth_date', 'percentage']);
    expect(choice.withheld).toEqual(['birth_place', 'school', 'photo']);
    expect([...choice.withheldKeys]).toEqual(['birth_place', 'school', 'school_code', 'centre', 'centre_code']);
    expect(choice.claims).toEqual(['family_name', 'middle_name', 'given_name', 'option', 'option_code', 'birthdate', 'percentage']);
    // An unknown name in the stored choice discloses nothing more.
    expect(shareDisclosure({ disclosed: ['gender', 'photo'] }).claims).not.toContain('gender');
  });

  it('gives a presentation of the chosen claims only while the diploma is live', () => {
    const link = { userId: 7, expiresAt: null, revokedAt: null, disclosed: [] };
    expect(holderPolicy.sharedPresentation(person(), link, diploma(mine), now)).toBe(true);
    expect(holderPolicy.sharedPresentation(person(), link, diploma(mine, { revokedAt: now }), now)).toEqual({
      field: 'token',
      message: 'field.share_link_presentation_revoked',
      conflict: true,
    });
    expect(holderPolicy.sharedPresentation(person(), { ...link, expiresAt: now }, diploma(mine), now)).toBe('expired');
    expect(holderPolicy.sharedPresentation(person({ id: 7, phone: '+243899999999' }), link, diploma(mine), now)).toBe('hidden');
  });
});
