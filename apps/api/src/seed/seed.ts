import { DEFAULT_ROLE_PERMISSIONS, PERMISSIONS, ROLES, type RoleName } from '@sceau/contracts';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { centres, countries, educProvinces, examSessions, institutionOptions, institutions, options, permissions, rolePermissions, roles, userRoles, users } from '../db/schema.ts';
import { hashPassword } from '../modules/accounts/auth-service.ts';
import { recordAudit } from '../modules/audit/audit-service.ts';
import { buildDemoSchools, DEMO_PASSWORD } from './demo-data.ts';
import { seedImportDemo } from '../modules/imports/demo-seed.ts';
import { COUNTRIES, EDUC_PROVINCES, OPTIONS, SESSIONS } from './reference-data.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * What every installation needs: the permission and role catalogue and the country's reference
 * lists. Idempotent: run at every start, it adds what is missing and changes nothing an
 * administrator set.
 */
export async function seedCatalogue(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const insertedPermissions = await tx
      .insert(permissions)
      .values(PERMISSIONS.map((name) => ({ name })))
      .onConflictDoNothing()
      .returning();
    const insertedRoles = await tx
      .insert(roles)
      .values(ROLES.map((name) => ({ name })))
      .onConflictDoNothing()
      .returning();
    // Default grants go to roles created now, and a permission new to the catalogue goes to the
    // existing default roles that hold it by default (e.g. diplomas.revoke to admin); root always
    // holds every permission. Nothing an administrator removed is granted again.
    const permissionRows = await tx.select().from(permissions);
    const permissionId = new Map(permissionRows.map((p) => [p.name, p.id]));
    const [root] = await tx.select().from(roles).where(eq(roles.name, 'root'));
    const existingRoles = (await tx.select().from(roles)).filter((role) => !insertedRoles.some((r) => r.id === role.id));
    const grants = [
      ...insertedRoles.flatMap((role) => (DEFAULT_ROLE_PERMISSIONS[role.name as RoleName] ?? []).map((p) => ({ roleId: role.id, permissionId: permissionId.get(p)! }))),
      ...existingRoles.flatMap((role) =>
        insertedPermissions.filter((p) => (DEFAULT_ROLE_PERMISSIONS[role.name as RoleName] ?? []).includes(p.name as never)).map((p) => ({ roleId: role.id, permissionId: p.id })),
      ),
      ...(root ? permissionRows.map((p) => ({ roleId: root.id, permissionId: p.id })) : []),
    ];
    if (grants.length) await tx.insert(rolePermissions).values(grants).onConflictDoNothing();

    await tx
      .insert(countries)
      .values([...COUNTRIES])
      .onConflictDoNothing();
    await tx
      .insert(educProvinces)
      .values(EDUC_PROVINCES.map(([code, name, province]) => ({ code, name, province })))
      .onConflictDoNothing();
    await tx
      .insert(options)
      .values(OPTIONS.map(([code, name, section]) => ({ code, name, section })))
      .onConflictDoNothing();
    await tx.insert(examSessions).values(SESSIONS).onConflictDoNothing();
  });
}

export const DEMO_USERS: { role: RoleName; name: string; firstName: string; phone: string }[] = [
  { role: 'root', name: 'Mbuyi', firstName: 'Odette', phone: '+243810000001' },
  { role: 'admin', name: 'Kabila', firstName: 'Jean-Pierre', phone: '+243810000002' },
  { role: 'validateur', name: 'Tshisekedi', firstName: 'Grâce', phone: '+243810000003' },
  { role: 'controleur', name: 'Mukendi', firstName: 'Patrick', phone: '+243810000004' },
  { role: 'backoffice_manager', name: 'Ilunga', firstName: 'Esther', phone: '+243810000005' },
  { role: 'validator', name: 'Lukusa', firstName: 'Daniel', phone: '+243810000006' },
];

export function demoEmail(role: RoleName): string {
  return `${role}@sceau.example`;
}

/** Demo schools and one account per role (`<role>@sceau.example`, password Sceau-Demo-2026). Idempotent. */
export async function seedDemo(db: Db): Promise<void> {
  const { centres: demoCentres, institutions: demoInstitutions } = buildDemoSchools();
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const provinceId = await idsByCode(tx, educProvinces);
    await tx
      .insert(centres)
      .values(demoCentres.map((c) => ({ code: c.code, name: c.name, city: c.city, educProvinceId: provinceId.get(c.provinceCode)! })))
      .onConflictDoNothing();
    const centreId = await idsByCode(tx, centres);
    const [congo] = await tx.select().from(countries).where(eq(countries.code, 'CD'));
    const inserted = await tx
      .insert(institutions)
      .values(
        demoInstitutions.map((i) => ({
          code: i.code,
          name: i.name,
          city: i.city,
          countryId: congo!.id,
          centreId: centreId.get(i.centreCode)!,
          educProvinceId: provinceId.get(i.provinceCode)!,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: institutions.id, code: institutions.code });
    if (inserted.length) {
      const optionId = await idsByCode(tx, options);
      const byCode = new Map(demoInstitutions.map((i) => [i.code, i]));
      await tx
        .insert(institutionOptions)
        .values(inserted.flatMap((row) => byCode.get(row.code)!.optionCodes.map((code) => ({ institutionId: row.id, optionId: optionId.get(code)! }))))
        .onConflictDoNothing();
    }

    const roleRows = await tx
      .select()
      .from(roles)
      .where(
        inArray(
          roles.name,
          DEMO_USERS.map((u) => u.role),
        ),
      );
    for (const demo of DEMO_USERS) {
      const [user] = await tx
        .insert(users)
        .values({ name: demo.name, firstName: demo.firstName, email: demoEmail(demo.role), phone: demo.phone, passwordHash, verifiedAt: new Date() })
        .onConflictDoNothing()
        .returning({ id: users.id });
      if (!user) continue;
      const role = roleRows.find((r) => r.name === demo.role)!;
      await tx.insert(userRoles).values({ userId: user.id, roleId: role.id }).onConflictDoNothing();
      await recordAudit(tx, { action: 'user.created', actorLabel: 'demo-seed', subjectType: 'user', subjectId: user.id, details: { role: demo.role } });
    }
  });
  await seedImportDemo(db);
}

async function idsByCode(tx: Tx, table: typeof centres | typeof educProvinces | typeof options): Promise<Map<string, number>> {
  const rows = await tx.select({ id: table.id, code: table.code }).from(table);
  return new Map(rows.map((r) => [r.code, r.id]));
}

/** Creates the first root account (for installations without demo data). Refuses when the e-mail is taken. */
export async function createRootAccount(db: Db, input: { email: string; password: string; name: string; firstName?: string }) {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const email = input.email.trim().toLowerCase();
    const [taken] = await tx.select({ id: users.id }).from(users).where(sql`${users.email} = ${email}`);
    if (taken) throw new Error(`An account with the e-mail ${email} already exists`);
    const [user] = await tx
      .insert(users)
      .values({ name: input.name, firstName: input.firstName ?? null, email, passwordHash, verifiedAt: new Date() })
      .returning({ id: users.id });
    const [root] = await tx.select().from(roles).where(eq(roles.name, 'root'));
    await tx.insert(userRoles).values({ userId: user!.id, roleId: root!.id });
    await recordAudit(tx, { action: 'user.created', actorLabel: 'create-root command', subjectType: 'user', subjectId: user!.id, details: { role: 'root' } });
    return user!;
  });
}
