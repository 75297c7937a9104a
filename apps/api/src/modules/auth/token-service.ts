import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accessTokens, users } from '../../db/schema.ts';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Issues an opaque bearer token; only its hash is kept. */
export async function issueAccessToken(
  db: Pick<Db, 'insert'>,
  input: { userId: number; clientId: string; scope: string; ttlMinutes: number; ip: string | null; userAgent: string | null },
): Promise<{ token: string; expiresIn: number; tokenId: number }> {
  const token = randomBytes(32).toString('base64url');
  const expiresIn = input.ttlMinutes * 60;
  const [row] = await db.insert(accessTokens).values({
    userId: input.userId,
    tokenHash: hashToken(token),
    clientId: input.clientId,
    scope: input.scope,
    ip: input.ip,
    userAgent: input.userAgent,
    expiresAt: new Date(Date.now() + expiresIn * 1000),
  }).returning({ id: accessTokens.id });
  return { token, expiresIn, tokenId: row!.id };
}

/** The active account a token belongs to, or null when the token is unknown, expired, revoked or its user archived. */
export async function findTokenOwner(db: Db, token: string): Promise<{ userId: number; tokenId: number } | null> {
  const [row] = await db
    .select({ userId: accessTokens.userId, tokenId: accessTokens.id })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(
      and(
        eq(accessTokens.tokenHash, hashToken(token)),
        isNull(accessTokens.revokedAt),
        gt(accessTokens.expiresAt, new Date()),
        isNull(users.archivedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function revokeToken(db: Db, tokenId: number): Promise<void> {
  await db.update(accessTokens).set({ revokedAt: new Date() }).where(eq(accessTokens.id, tokenId));
}

export async function revokeUserTokens(db: Pick<Db, 'update'>, userId: number): Promise<void> {
  await db
    .update(accessTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt)));
}
