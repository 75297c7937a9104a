import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accessTokens } from '../../db/schema.ts';
import { hashToken } from '../../lib/access-tokens.ts';

/** Issues an opaque bearer token; only its hash is kept. */
export async function issueAccessToken(
  db: Pick<Db, 'insert'>,
  input: { userId: number; clientId: string; scope: string; ttlMinutes: number; ip: string | null; userAgent: string | null },
): Promise<{ token: string; expiresIn: number; tokenId: number }> {
  const token = randomBytes(32).toString('base64url');
  const expiresIn = input.ttlMinutes * 60;
  const [row] = await db
    .insert(accessTokens)
    .values({
      userId: input.userId,
      tokenHash: hashToken(token),
      clientId: input.clientId,
      scope: input.scope,
      ip: input.ip,
      userAgent: input.userAgent,
      expiresAt: new Date(Date.now() + expiresIn * 1000),
    })
    .returning({ id: accessTokens.id });
  return { token, expiresIn, tokenId: row!.id };
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
