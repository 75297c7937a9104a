import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { centres, institutions, users } from '../db/schema.ts';

/**
 * Where a staff account works, and where an object lies: a school, a centre, an educational
 * province, or the whole country (all null). Always resolved: a school's scope carries its centre
 * and province, a centre's its province, so "within" is a comparison of the three.
 */
export interface Scope {
  institutionId: number | null;
  centreId: number | null;
  educProvinceId: number | null;
}

export const NATIONAL: Scope = Object.freeze({ institutionId: null, centreId: null, educProvinceId: null });

export function isNational(scope: Scope): boolean {
  return scope.institutionId === null && scope.centreId === null && scope.educProvinceId === null;
}

/** Whether `place` (an object's place, or another account's scope) lies inside `scope`. */
export function isWithin(scope: Scope, place: Scope): boolean {
  if (scope.institutionId !== null && place.institutionId !== scope.institutionId) return false;
  if (scope.centreId !== null && place.centreId !== scope.centreId) return false;
  if (scope.educProvinceId !== null && place.educProvinceId !== scope.educProvinceId) return false;
  return true;
}

/** The same rule as `isWithin`, as a SQL condition on a table's three place columns (undefined: everything). */
export function withinCondition(scope: Scope, columns: { institutionId: PgColumn; centreId: PgColumn; educProvinceId: PgColumn }): SQL | undefined {
  const parts: SQL[] = [];
  if (scope.institutionId !== null) parts.push(eq(columns.institutionId, scope.institutionId));
  if (scope.centreId !== null) parts.push(eq(columns.centreId, scope.centreId));
  if (scope.educProvinceId !== null) parts.push(eq(columns.educProvinceId, scope.educProvinceId));
  return parts.length ? and(...parts) : undefined;
}

export type ScopeProblem = 'unknown_institution' | 'unknown_centre' | 'inconsistent';

/**
 * Fills what a school or a centre implies (its centre, its province) and refuses a scope whose
 * parts disagree (a school of another centre or province): the place a scope names must exist.
 */
export async function resolveScope(db: Pick<Db, 'select'>, raw: Scope): Promise<{ scope: Scope } | { problem: ScopeProblem }> {
  let { institutionId, centreId, educProvinceId } = raw;
  if (institutionId !== null) {
    const [school] = await db.select({ centreId: institutions.centreId, educProvinceId: institutions.educProvinceId }).from(institutions).where(eq(institutions.id, institutionId));
    if (!school) return { problem: 'unknown_institution' };
    if ((centreId !== null && centreId !== school.centreId) || (educProvinceId !== null && educProvinceId !== school.educProvinceId)) return { problem: 'inconsistent' };
    centreId = school.centreId;
    educProvinceId = school.educProvinceId;
  }
  if (centreId !== null) {
    const [centre] = await db.select({ educProvinceId: centres.educProvinceId }).from(centres).where(eq(centres.id, centreId));
    if (!centre) return { problem: 'unknown_centre' };
    if (educProvinceId !== null && educProvinceId !== centre.educProvinceId) return { problem: 'inconsistent' };
    educProvinceId = centre.educProvinceId;
  }
  return { scope: { institutionId, centreId, educProvinceId } };
}

/** The scopes of accounts, resolved (an account's stored scope may name only its school). */
export async function loadScopes(db: Pick<Db, 'select'>, userIds: number[]): Promise<Map<number, Scope>> {
  const result = new Map<number, Scope>();
  if (userIds.length === 0) return result;
  const rows = await db
    .select({
      id: users.id,
      institutionId: users.institutionId,
      centreId: users.centreId,
      educProvinceId: users.educProvinceId,
      schoolCentre: institutions.centreId,
      schoolProvince: institutions.educProvinceId,
      centreProvince: centres.educProvinceId,
    })
    .from(users)
    .leftJoin(institutions, eq(institutions.id, users.institutionId))
    .leftJoin(centres, eq(centres.id, users.centreId))
    .where(inArray(users.id, userIds));
  for (const r of rows) {
    result.set(r.id, {
      institutionId: r.institutionId,
      centreId: r.centreId ?? r.schoolCentre ?? null,
      educProvinceId: r.educProvinceId ?? r.schoolProvince ?? r.centreProvince ?? null,
    });
  }
  return result;
}
