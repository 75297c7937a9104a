import { DISTRIBUTION_LIMITS, type Grants, type Locale, type UserView } from '@sceau/contracts';
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { centres, educProvinces, institutions, roles, userRoles, users } from '../../db/schema.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { recordAudit } from '../audit/audit-service.ts';
import { hashPassword } from '../auth/auth-service.ts';
import { revokeUserTokens } from '../auth/token-service.ts';
import type { Messenger } from '../messaging/messaging-service.ts';
import type { DistributionService } from '../distribution/distribution-service.ts';
import { containsPattern } from '../../lib/sql-search.ts';

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
 * Staff accounts, run by administrators. Only root may grant the root role or change a root account:
 * an admin cannot raise anyone (themselves included) above admin.
 */
export class UsersService {
  constructor(
    private readonly db: Db,
    private readonly messenger: Messenger,
    /** Makes the one-time sign-in links administrators send (ADR 0080). */
    private readonly signInLinks: Pick<DistributionService, 'createStaffLink' | 'directAuthUrl'>,
  ) {}

  async list(query: { page: number; per_page?: number; search?: string; role?: string; sort: 'name' | 'created_at' | 'role'; archived?: '0' | '1' }) {
    const perPage = query.per_page ?? 20;
    const conditions: SQL[] = [query.archived === '1' ? isNotNull(users.archivedAt) : isNull(users.archivedAt)];
    if (query.search) {
      const pattern = containsPattern(query.search);
      conditions.push(
        or(ilike(users.name, pattern), ilike(users.firstName, pattern), ilike(users.email, pattern), ilike(users.phone, pattern))!,
      );
    }
    if (query.role) {
      const byRole = /^\d+$/.test(query.role) ? eq(roles.id, Number(query.role)) : eq(roles.name, query.role);
      conditions.push(
        inArray(users.id, this.db.select({ id: userRoles.userId }).from(userRoles).innerJoin(roles, eq(roles.id, userRoles.roleId)).where(byRole)),
      );
    }
    const where = and(...conditions);
    const [{ total } = { total: 0 }] = await this.db.select({ total: count() }).from(users).where(where);
    const firstRole = sql`(select min(r.name) from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = ${users.id})`;
    const order =
      query.sort === 'created_at' ? [desc(users.createdAt), asc(users.id)] : query.sort === 'role' ? [sql`${firstRole} asc nulls last`, asc(users.name)] : [asc(users.name), asc(users.id)];
    const rows = await this.db
      .select()
      .from(users)
      .where(where)
      .orderBy(...order)
      .limit(perPage)
      .offset((query.page - 1) * perPage);
    return {
      data: await this.present(rows),
      meta: { current_page: query.page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total },
    };
  }

  async get(id: number): Promise<UserView> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    if (!row) throw new AppError('not_found');
    return (await this.present([row]))[0]!;
  }

  async create(actor: Grants & { id: number }, input: UserInput & { name: string; roles: number[] }, request: FastifyRequest): Promise<UserView> {
    await this.assertGrantable(actor, input.roles);
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
          institutionId: input.institution_id ?? null,
          centreId: input.centre_id ?? null,
          educProvinceId: input.province_id ?? null,
          locale: request.locale,
        })
        .returning({ id: users.id });
      if (input.roles.length) await tx.insert(userRoles).values(input.roles.map((roleId) => ({ userId: created!.id, roleId })));
      await recordAudit(tx, { action: 'user.created', subjectType: 'user', subjectId: created!.id, details: { roles: input.roles } }, request);
      // Inside the transaction: an account whose owner cannot be told their password is not created.
      const login = input.email ?? input.phone!;
      await this.messenger.send(login, 'account_created', request.locale as Locale, { name: input.first_name ?? input.name, login, password });
      return created!.id;
    });
    return this.get(id);
  }

  async update(actor: Grants & { id: number }, id: number, input: UserInput, request: FastifyRequest): Promise<UserView> {
    const target = await this.findActive(id);
    await this.assertMayManage(actor, target.id);
    if (input.roles) await this.assertGrantable(actor, input.roles);
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
      if (input.institution_id !== undefined) changes.institutionId = input.institution_id;
      if (input.centre_id !== undefined) changes.centreId = input.centre_id;
      if (input.province_id !== undefined) changes.educProvinceId = input.province_id;
      await tx.update(users).set(changes).where(eq(users.id, id));
      const details: Record<string, unknown> = { fields: Object.keys(input).filter((k) => k !== 'roles') };
      if (input.roles) {
        const before = await tx.select({ roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, id));
        await tx.delete(userRoles).where(eq(userRoles.userId, id));
        if (input.roles.length) await tx.insert(userRoles).values(input.roles.map((roleId) => ({ userId: id, roleId })));
        details.roles = { before: before.map((r) => r.roleId).sort(), after: [...input.roles].sort() };
      }
      await recordAudit(tx, { action: input.roles ? 'user.updated_with_roles' : 'user.updated', subjectType: 'user', subjectId: id, details }, request);
    });
    return this.get(id);
  }

  /** A new temporary password, sent to the person; their sessions end and they choose a new one at sign-in. */
  async resetPassword(actor: Grants & { id: number }, id: number, request: FastifyRequest) {
    const target = await this.findActive(id);
    await this.assertMayManage(actor, target.id);
    const password = temporaryPassword();
    const passwordHash = await hashPassword(password);
    const channel = await this.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, passwordResetRequired: true, updatedAt: new Date() }).where(eq(users.id, id));
      await revokeUserTokens(tx, id);
      await recordAudit(tx, { action: 'user.password_reset', subjectType: 'user', subjectId: id }, request);
      return this.messenger.send(target.email ?? target.phone!, 'password_reset_by_admin', target.locale as Locale, { password });
    });
    return { channel };
  }

  /**
   * A one-time sign-in link (15 minutes, single use) sent to the account's e-mail, else its phone:
   * the person is signed in by opening it (`/direct-auth`). The account's earlier unused links end.
   */
  async sendSignInLink(actor: Grants & { id: number }, id: number, request: FastifyRequest) {
    const target = await this.findActive(id);
    await this.assertMayManage(actor, target.id);
    const channel = await this.db.transaction(async (tx) => {
      const token = await this.signInLinks.createStaffLink(tx, id);
      await recordAudit(tx, { action: 'user.sign_in_link_sent', subjectType: 'user', subjectId: id }, request);
      // Inside the transaction: a link that could not be sent is not left valid.
      return this.messenger.send(target.email ?? target.phone!, 'sign_in_link', target.locale as Locale, {
        name: target.firstName ?? target.name,
        url: this.signInLinks.directAuthUrl(token),
        minutes: DISTRIBUTION_LIMITS.staffLinkMinutes,
      });
    });
    return { channel, name: [target.firstName, target.name].filter(Boolean).join(' ') };
  }

  /** Archived accounts cannot sign in and their tokens stop working; nothing is deleted. */
  async archive(actor: Grants & { id: number }, ids: number[], request: FastifyRequest): Promise<number> {
    const unique = [...new Set(ids)];
    if (unique.includes(actor.id)) throw fieldError('users', 'field.cannot_archive_self');
    const targets = await this.db.select().from(users).where(and(inArray(users.id, unique), isNull(users.archivedAt)));
    if (targets.length !== unique.length) throw new AppError('not_found');
    for (const target of targets) await this.assertMayManage(actor, target.id);
    await this.db.transaction(async (tx) => {
      await tx.update(users).set({ archivedAt: new Date(), updatedAt: new Date() }).where(inArray(users.id, unique));
      for (const id of unique) {
        await revokeUserTokens(tx, id);
        await recordAudit(tx, { action: 'user.archived', subjectType: 'user', subjectId: id }, request);
      }
    });
    return unique.length;
  }

  private async findActive(id: number): Promise<UserRow> {
    const [row] = await this.db.select().from(users).where(and(eq(users.id, id), isNull(users.archivedAt)));
    if (!row) throw new AppError('not_found');
    return row;
  }

  private async rootRoleId(): Promise<number | null> {
    const [root] = await this.db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'root'));
    return root?.id ?? null;
  }

  private async assertGrantable(actor: Grants, roleIds: number[]): Promise<void> {
    if (roleIds.length === 0) return;
    const found = await this.db.select({ id: roles.id, name: roles.name }).from(roles).where(inArray(roles.id, roleIds));
    if (found.length !== new Set(roleIds).size) throw fieldError('roles', 'field.unknown_role');
    if (found.some((r) => r.name === 'root') && !actor.roles.includes('root')) throw fieldError('roles', 'field.role_not_grantable');
  }

  /** Only root may change a root account. */
  private async assertMayManage(actor: Grants, targetId: number): Promise<void> {
    if (actor.roles.includes('root')) return;
    const rootId = await this.rootRoleId();
    if (rootId === null) return;
    const [isRoot] = await this.db.select().from(userRoles).where(and(eq(userRoles.userId, targetId), eq(userRoles.roleId, rootId)));
    if (isRoot) throw new AppError('forbidden_role');
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
      institutions: await lookup(institutions, ids((u) => u.institutionId)),
      centres: await lookup(centres, ids((u) => u.centreId)),
      provinces: await lookup(educProvinces, ids((u) => u.educProvinceId)),
    };
  }

  private async present(rows: UserRow[]): Promise<UserView[]> {
    if (rows.length === 0) return [];
    const links = await this.db
      .select({ userId: userRoles.userId, id: roles.id, name: roles.name })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(inArray(userRoles.userId, rows.map((r) => r.id)))
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
    }));
  }
}
