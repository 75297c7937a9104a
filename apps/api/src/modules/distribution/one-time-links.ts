import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { oneTimeCodes } from '../../db/schema.ts';

/** What a link opens: a candidate's diploma, a staff sign-in, or a batch's zip. */
export type LinkPurpose = 'direct_auth:candidate' | 'direct_auth:staff' | 'archive_download';

export type LinkFailure = 'unknown' | 'used' | 'expired';

type Executor = Pick<Db, 'insert' | 'update' | 'select'>;

/** `<row id>.<secret>`: the id finds the row, the secret proves the link; only a hash of both is kept. */
function hashLink(id: number, secret: string): string {
  return createHash('sha256').update(`link:${id}:${secret}`).digest('hex');
}

function parse(token: string): { id: number; secret: string } | null {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{20,100})$/.exec(token.trim());
  if (!match) return null;
  return { id: Number(match[1]), secret: match[2]! };
}

/**
 * Links that carry a secret (ADR 0080): sign-in links (single use, minutes long) and zip download
 * links (days long, reusable until they expire). Kept in `one_time_codes` like the 6-digit codes:
 * a purpose, a subject (`diploma:<id>`, `user:<id>`, `generation:<id>`), an expiry, only a hash.
 */
export class OneTimeLinks {
  constructor(private readonly db: Db) {}

  /**
   * A new link's token. `replace` ends the subject's earlier links of the same purpose still unused
   * (a staff member's newest link is the only one that works).
   */
  async create(tx: Executor, input: { purpose: LinkPurpose; subject: string; userId?: number | null; minutes: number; replace?: boolean }): Promise<string> {
    if (input.replace) {
      await tx
        .update(oneTimeCodes)
        .set({ consumedAt: new Date() })
        .where(and(eq(oneTimeCodes.destination, input.subject), eq(oneTimeCodes.purpose, input.purpose), isNull(oneTimeCodes.consumedAt)));
    }
    const secret = randomBytes(24).toString('base64url');
    const [row] = await tx
      .insert(oneTimeCodes)
      .values({
        purpose: input.purpose,
        destination: input.subject,
        userId: input.userId ?? null,
        codeHash: 'pending',
        expiresAt: new Date(Date.now() + input.minutes * 60_000),
      })
      .returning({ id: oneTimeCodes.id });
    await tx
      .update(oneTimeCodes)
      .set({ codeHash: hashLink(row!.id, secret) })
      .where(eq(oneTimeCodes.id, row!.id));
    return `${row!.id}.${secret}`;
  }

  /**
   * Spends a single-use link: one statement marks it used only if it is unused and unexpired, so two
   * concurrent uses cannot both succeed. Answers its subject, or why it cannot be used.
   */
  async consume(tx: Executor, token: string, purposes: LinkPurpose[]): Promise<{ purpose: LinkPurpose; subject: string; userId: number | null } | { failure: LinkFailure }> {
    const parsed = parse(token);
    if (!parsed) return { failure: 'unknown' };
    const hash = hashLink(parsed.id, parsed.secret);
    const [spent] = await tx
      .update(oneTimeCodes)
      .set({ consumedAt: new Date() })
      .where(
        and(
          eq(oneTimeCodes.id, parsed.id),
          eq(oneTimeCodes.codeHash, hash),
          inArray(oneTimeCodes.purpose, purposes),
          isNull(oneTimeCodes.consumedAt),
          gt(oneTimeCodes.expiresAt, sql`now()`),
        ),
      )
      .returning({ purpose: oneTimeCodes.purpose, subject: oneTimeCodes.destination, userId: oneTimeCodes.userId });
    if (spent) return { purpose: spent.purpose as LinkPurpose, subject: spent.subject, userId: spent.userId };
    return { failure: await this.whyNot(tx, parsed.id, hash, purposes) };
  }

  /** A reusable link (the zip's): its subject while it has not expired. */
  async peek(token: string, purpose: LinkPurpose): Promise<string | null> {
    const parsed = parse(token);
    if (!parsed) return null;
    const [row] = await this.db
      .select({ subject: oneTimeCodes.destination })
      .from(oneTimeCodes)
      .where(
        and(
          eq(oneTimeCodes.id, parsed.id),
          eq(oneTimeCodes.purpose, purpose),
          eq(oneTimeCodes.codeHash, hashLink(parsed.id, parsed.secret)),
          isNull(oneTimeCodes.consumedAt),
          gt(oneTimeCodes.expiresAt, sql`now()`),
        ),
      );
    return row?.subject ?? null;
  }

  private async whyNot(tx: Executor, id: number, hash: string, purposes: LinkPurpose[]): Promise<LinkFailure> {
    const [row] = await tx
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.id, id), eq(oneTimeCodes.codeHash, hash)));
    if (!row || !(purposes as string[]).includes(row.purpose)) return 'unknown';
    if (row.consumedAt) return 'used';
    return 'expired';
  }
}
