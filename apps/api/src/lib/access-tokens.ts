import { createHash } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accessTokens, users } from '../db/schema.ts';

// Bearer tokens as stored (their hash) and looked up: shared by the auth module, which issues and
// revokes them, and the access plugin, which may not import a module (ADR 0124).

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The active account a token belongs to, or null when the token is unknown, expired, revoked or its user archived. */
export async function findTokenOwner(db: Db, token: string): Promise<{ userId: number; tokenId: number } | null> {
  const [row] = await db
    .select({ userId: accessTokens.userId, tokenId: accessTokens.id })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(and(eq(accessTokens.tokenHash, hashToken(token)), isNull(accessTokens.revokedAt), gt(accessTokens.expiresAt, new Date()), isNull(users.archivedAt)))
    .limit(1);
  return row ?? null;
}
