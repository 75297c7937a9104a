import { DISTRIBUTION_LIMITS, type UserView } from '@sceau/contracts';
import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { centres, educProvinces, institutions, roles, userRoles, users } from '../../db/schema.ts';
import { byName, foldedContains, foldedOf } from '../../db/schema/folded.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { recordAudit } from '../audit/audit-service.ts';
import { hashPassword } from './auth-service.ts';
import { revokeUserTokens } from './token-service.ts';
import type { Messenger } from '../messaging/messaging-service.ts';
import { containsPattern } from '../../lib/sql-search.ts';
import type { Actor } from '../../policies/actor.ts';
import { allowed, authorize, type Decision } from '../../policies/policy.ts';
import { loadRolesOf } from '../../policies/grants.ts';
import { isNational, loadScopes, NATIONAL, resolveScope, type Scope } from '../../policies/scope.ts';
import { userPolicy, type AccountFacts } from '../../policies/user-policy.ts';
import type { StaffSignInLinks } from './sign-in-links.ts';
import { loadAllRoles, loadRolesWithPermissions } from './user-repository.ts';

type UserRow = typeof users.$inferSelect;

export interface UserInput {
  name?: string;
  first_name?: string | null;
  email?: string | null;
  phone?: string | null;
  roles?: number[];
  institution_id?: number | null;
  centre_id?: number | null;
  province_id?: number | null;
}

/** A readable temporary password (no look-alike characters), sent to the person and changed at first sign-in. */
function temporaryPassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(12);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

/**
 * Staff accounts, run by administrators. Every rule about who may touch which account, place it
 * where and grant it what is the user policy's (policies/user-policy.ts); this service loads the
 * facts the policy reads and applies what it allows.
 */
export class UsersService {
  constructor(
    private readonly db: Db,
    private readonly messenger: Messenger,
    /** Makes the one-time sign-in links administrators send (ADR 0080). */
    private readonly signInLinks: Pick<StaffSignInLinks, 'create' | 'url'>,
  ) {}

  /** Every role, and whether `actor` may give (or take away) it: the policy's grant rule. */
  async roles(actor: Actor) {
    const all = await loadAllRoles(this.db);
    return all.map((role) => ({ ...role, grantable: allowed(userPolicy.grant(actor, { name: role.name, permissions: role.permissions.map((p) => p.name) })) }));
  }

  async list(actor: Actor, query: { page: number; per_page?: number; search?: string; role?: string; sort: 'name' | 'created_at' | 'role'; archived?: '0' | '1' }) {
    const perPage = query.per_page ?? 20;
    const conditions: (SQL | undefined)[] = [query.archived === '1' ? isNotNull(users.archivedAt) : isNull(users.archivedAt), userPolicy.visibleCondition(actor)];
    if (query.search) {
      const pattern = containsPattern(query.search);
      // Names accents and case aside ("francois" finds François; users_search_idx, ADR 0139), contacts as typed.
      conditions.push(or(foldedContains(foldedOf(users.name, users.firstName), query.search), ilike(users.email, pattern), ilike(users.phone, pattern))!);
    }
    if (query.role) {
      const byRole = /^\d+$/.test(query.role) ? eq(roles.id, Number(query.role)) : eq(roles.name, query.role);
      conditions.push(inArray(users.id, this.db.select({ id: userRoles.userId }).from(userRoles).innerJoin(roles, eq(roles.id, userRoles.roleId)).where(byRole)));
    }
    const where = and(...conditions);
    const [{ total } = { total: 0 }] = await this.db.select({ total: count() }).from(users).where(where);
    const firstRole = sql`(select min(r.name) from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = ${users.id})`;
    const order =
      query.sort === 'created_at'
        ? [desc(users.createdAt), asc(users.id)]
        : query.sort === 'role'
          ? [sql`${firstRole} asc nulls last`, asc(byName(users.name))]
          : [asc(byName(users.name)), asc(byName(users.firstName)), asc(users.id)];
    const rows = await this.db
      .select()
      .from(users)
      .where(where)
      .orderBy(...order)
      .limit(perPage)
      .offset((query.page - 1) * perPage);
    return {
      data: await this.present(actor, rows),
      meta: { current_page: query.page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total },
    };
  }

  async get(actor: Actor, id: number): Promise<UserView> {
    const { row } = await this.target(actor, id, userPolicy.view, { archivedToo: true });
    return (await this.present(actor, [row]))[0]!;
  }

  async create(actor: Actor, input: UserInput & { name: string; roles: number[] }): Promise<UserView> {
    authorize(userPolicy.create(actor));
    // An account added by a scoped administrator without a place of its own works where they do.
    const asked = { institutionId: input.institution_id ?? null, centreId: input.centre_id ?? null, educProvinceId: input.province_id ?? null };
    const scope = await this.placeable(actor, isNational(asked) ? actor.scope : asked);
    await this.assertGrantable(actor, [], input.roles);
    await this.assertContactsFree(input.email ?? null, input.phone ?? null, null);
    const password = temporaryPassword();
    const passwordHash = await hashPassword(password);
    const id = await this.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(users)
        .values({
          name: input.name,
          firstName: input.first_name ?? null,
          email: input.email ?? null,
          phone: input.phone ?? null,
          passwordHash,
          passwordResetRequired: true,
          verifiedAt: new Date(),
          ...scope,
          locale: actor.locale,
        })
        .returning({ id: users.id });
      if (input.roles.length) await tx.insert(userRoles).values(input.roles.map((roleId) => ({ userId: created!.id, roleId })));
      await recordAudit(tx, { action: 'user.created', subjectType: 'user', subjectId: created!.id, details: { roles: input.roles, scope } }, actor);
      // Inside the transaction: an account whose owner cannot be told their password is not created.
      const login = input.email ?? input.phone!;
      await this.messenger.send(login, 'account_created', actor.locale, { name: input.first_name ?? input.name, login, password });
      return created!.id;
    });
    return this.get(actor, id);
  }

  async update(actor: Actor, id: number, input: UserInput): Promise<UserView> {
    const { row: target, facts } = await this.target(actor, id, userPolicy.edit);
    const askedScope = {
      institutionId: input.institution_id === undefined ? target.institutionId : input.institution_id,
      centreId: input.centre_id === undefined ? target.centreId : input.centre_id,
      educProvinceId: input.province_id === undefined ? target.educProvinceId : input.province_id,
    };
    const scopeChanges = input.institution_id !== undefined || input.centre_id !== undefined || input.province_id !== undefined;
    const differs = (a: Scope, b: Scope) => a.institutionId !== b.institutionId || a.centreId !== b.centreId || a.educProvinceId !== b.educProvinceId;
    const asked = scopeChanges ? await resolveScope(this.db, askedScope) : null;
    const sameScope = !asked || ('scope' in asked && !differs(asked.scope, facts.scope));
    const currentRoleIds = (await this.db.select({ roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, id))).map((r) => r.roleId);
    const sameRoles = !input.roles || (new Set(input.roles).size === currentRoleIds.length && input.roles.every((r) => currentRoleIds.includes(r)));
    // Who may change access comes first (nobody changes their own), then where and what.
    if (!sameScope || !sameRoles) authorize(userPolicy.changeAccess(actor, facts));
    const scope = !sameScope ? await this.placeable(actor, askedScope) : null;
    if (!sameRoles) await this.assertGrantable(actor, currentRoleIds, input.roles!);
    const email = input.email === undefined ? target.email : input.email;
    const phone = input.phone === undefined ? target.phone : input.phone;
    if (!email && !phone) throw fieldError('email', 'field.mail_or_phone_required');
    await this.assertContactsFree(input.email ?? null, input.phone ?? null, id);
    await this.db.transaction(async (tx) => {
      const changes: Partial<UserRow> = { updatedAt: new Date() };
      if (input.name !== undefined) changes.name = input.name;
      if (input.first_name !== undefined) changes.firstName = input.first_name;
      if (input.email !== undefined) changes.email = input.email;
      if (input.phone !== undefined) changes.phone = input.phone;
      if (scope) Object.assign(changes, scope);
      await tx.update(users).set(changes).where(eq(users.id, id));
      const details: Record<string, unknown> = { fields: Object.keys(input).filter((k) => k !== 'roles') };
      if (!sameRoles) {
        await tx.delete(userRoles).where(eq(userRoles.userId, id));
        if (input.roles!.length) await tx.insert(userRoles).values([...new Set(input.roles!)].map((roleId) => ({ userId: id, roleId })));
        details.roles = { before: [...currentRoleIds].sort(), after: [...new Set(input.roles!)].sort() };
      }
      if (!sameScope) details.scope = { before: facts.scope, after: scope };
      // A new e-mail or phone ends the account's sessions: whoever holds the new contact signs in anew.
      if (email !== target.email || phone !== target.phone) await revokeUserTokens(tx, id);
      await recordAudit(tx, { action: sameRoles ? 'user.updated' : 'user.updated_with_roles', subjectType: 'user', subjectId: id, details }, actor);
    });
    return this.get(actor, id);
  }

  /** A new temporary password, sent to the person; their sessions end and they choose a new one at sign-in. */
  async resetPassword(actor: Actor, id: number) {
    const { row: target } = await this.target(actor, id, userPolicy.resetPassword);
    const password = temporaryPassword();
    const passwordHash = await hashPassword(password);
    const channel = await this.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, passwordResetRequired: true, updatedAt: new Date() }).where(eq(users.id, id));
      await revokeUserTokens(tx, id);
      await recordAudit(tx, { action: 'user.password_reset', subjectType: 'user', subjectId: id }, actor);
      return this.messenger.send(target.email ?? target.phone!, 'password_reset_by_admin', target.locale, { password });
    });
    return { channel };
  }

  /**
   * A one-time sign-in link (15 minutes, single use) sent to the account's e-mail, else its phone:
   * the person is signed in by opening it (`/direct-auth`). The account's earlier unused links end.
   */
  async sendSignInLink(actor: Actor, id: number) {
    const { row: target } = await this.target(actor, id, userPolicy.sendSignInLink);
    const channel = await this.db.transaction(async (tx) => {
      const token = await this.signInLinks.create(tx, id);
      await recordAudit(tx, { action: 'user.sign_in_link_sent', subjectType: 'user', subjectId: id }, actor);
      // Inside the transaction: a link that could not be sent is not left valid.
      return this.messenger.send(target.email ?? target.phone!, 'sign_in_link', target.locale, {
        name: target.firstName ?? target.name,
        url: this.signInLinks.url(token),
        minutes: DISTRIBUTION_LIMITS.staffLinkMinutes,
      });
    });
    return { channel, name: [target.firstName, target.name].filter(Boolean).join(' ') };
  }

  /** Archived accounts cannot sign in and their tokens stop working; nothing is deleted. */
  async archive(actor: Actor, ids: number[]): Promise<number> {
    const unique = [...new Set(ids)];
    // Every account is checked before any is archived: all or none.
    for (const id of unique) await this.target(actor, id, userPolicy.archive);
    await this.db.transaction(async (tx) => {
      await tx.update(users).set({ archivedAt: new Date(), updatedAt: new Date() }).where(inArray(users.id, unique));
      for (const id of unique) {
        await revokeUserTokens(tx, id);
        await recordAudit(tx, { action: 'user.archived', subjectType: 'user', subjectId: id }, actor);
      }
    });
    return unique.length;
  }

  /** An account and the facts its policy reads, held to `rule` (404 when missing or outside the actor's scope). */
  private async target(actor: Actor, id: number, rule: (actor: Actor, target: AccountFacts) => Decision, options: { archivedToo?: boolean } = {}) {
    const [row] = await this.db
      .select()
      .from(users)
      .where(options.archivedToo ? eq(users.id, id) : and(eq(users.id, id), isNull(users.archivedAt)));
    if (!row) throw new AppError('not_found');
    const facts = await this.factsOf([row]).then((all) => all.get(row.id)!);
    authorize(rule(actor, facts));
    return { row, facts };
  }

  private async factsOf(rows: UserRow[]): Promise<Map<number, AccountFacts>> {
    const ids = rows.map((r) => r.id);
    const [scopes, roleLists] = await Promise.all([loadScopes(this.db, ids), loadRolesOf(this.db, ids)]);
    return new Map(
      rows.map((r) => [r.id, { id: r.id, scope: scopes.get(r.id) ?? NATIONAL, roles: (roleLists.get(r.id) ?? []).map((role) => role.name), archived: r.archivedAt !== null }]),
    );
  }

  /** The scope asked for, resolved, and within the actor's own (422 on the scope fields otherwise). */
  private async placeable(actor: Actor, asked: Scope): Promise<Scope> {
    const resolved = await resolveScope(this.db, asked);
    if ('problem' in resolved) {
      const field = resolved.problem === 'unknown_centre' ? 'centre_id' : 'institution_id';
      throw fieldError(field, resolved.problem === 'inconsistent' ? 'field.scope_inconsistent' : 'field.invalid_option');
    }
    const decision = userPolicy.place(actor, resolved.scope);
    if (decision !== true) {
      // Named on the broadest field that leaves the actor's place (a province, then a centre, then a school).
      const { scope } = resolved;
      const field =
        actor.scope.educProvinceId !== null && scope.educProvinceId !== actor.scope.educProvinceId
          ? 'province_id'
          : actor.scope.centreId !== null && scope.centreId !== actor.scope.centreId
            ? 'centre_id'
            : 'institution_id';
      throw fieldError(field, 'field.scope_outside_yours');
    }
    return resolved.scope;
  }

  /** Every role added or removed must be one the actor may grant (user policy). */
  private async assertGrantable(actor: Actor, before: number[], after: number[]): Promise<void> {
    const wanted = new Set(after);
    const found = wanted.size ? await loadRolesWithPermissions(this.db, [...wanted]) : [];
    if (found.length !== wanted.size) throw fieldError('roles', 'field.unknown_role');
    const changed = [...after.filter((id) => !before.includes(id)), ...before.filter((id) => !wanted.has(id))];
    const changedRoles = await loadRolesWithPermissions(this.db, changed);
    for (const role of changedRoles) authorize(userPolicy.grant(actor, { name: role.name, permissions: role.permissions.map((p) => p.name) }));
  }

  private async assertContactsFree(email: string | null, phone: string | null, exceptId: number | null): Promise<void> {
    const check = async (column: typeof users.email | typeof users.phone, value: string | null, key: string, field: string) => {
      if (!value) return;
      const [other] = await this.db.select({ id: users.id }).from(users).where(eq(column, value));
      if (other && other.id !== exceptId) throw fieldError(field, key);
    };
    await check(users.email, email, 'field.email_taken', 'email');
    await check(users.phone, phone, 'field.phone_taken', 'phone');
  }

  private async scopeNames(rows: UserRow[]) {
    const ids = (pick: (u: UserRow) => number | null) => [...new Set(rows.map(pick).filter((v): v is number => v !== null))];
    const lookup = async (table: typeof institutions | typeof centres | typeof educProvinces, wanted: number[]) =>
      wanted.length === 0
        ? new Map<number, string>()
        : new Map((await this.db.select({ id: table.id, name: table.name }).from(table).where(inArray(table.id, wanted))).map((r) => [r.id, r.name]));
    return {
      institutions: await lookup(
        institutions,
        ids((u) => u.institutionId),
      ),
      centres: await lookup(
        centres,
        ids((u) => u.centreId),
      ),
      provinces: await lookup(
        educProvinces,
        ids((u) => u.educProvinceId),
      ),
    };
  }

  private async present(actor: Actor, rows: UserRow[]): Promise<UserView[]> {
    if (rows.length === 0) return [];
    const facts = await this.factsOf(rows);
    const links = await this.db
      .select({ userId: userRoles.userId, id: roles.id, name: roles.name })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(
        inArray(
          userRoles.userId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(roles.name));
    const names = await this.scopeNames(rows);
    return rows.map((u) => ({
      id: u.id,
      name: u.name,
      first_name: u.firstName,
      email: u.email,
      phone: u.phone,
      roles: links.filter((l) => l.userId === u.id).map(({ id, name }) => ({ id, name })),
      scope: {
        institution_id: u.institutionId,
        centre_id: u.centreId,
        province_id: u.educProvinceId,
        institution_name: u.institutionId === null ? null : (names.institutions.get(u.institutionId) ?? null),
        centre_name: u.centreId === null ? null : (names.centres.get(u.centreId) ?? null),
        province_name: u.educProvinceId === null ? null : (names.provinces.get(u.educProvinceId) ?? null),
      },
      verified: u.verifiedAt !== null,
      archived: u.archivedAt !== null,
      created_at: u.createdAt.toISOString(),
      abilities: userPolicy.abilities(actor, facts.get(u.id)!),
    }));
  }
}
