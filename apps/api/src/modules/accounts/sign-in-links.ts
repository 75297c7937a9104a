import { DISTRIBUTION_LIMITS } from '@sceau/contracts';
import type { Db } from '../../db/client.ts';

type Executor = Pick<Db, 'insert' | 'update' | 'select'>;

/**
 * Where links with a secret are kept (distribution's OneTimeLinks, ADR 0080), as much as a staff
 * sign-in link needs. Declared here so that accounts does not import distribution: distribution
 * spends these links (/direct-auth) and issues the token through accounts.
 */
export interface LinkStore {
  create(tx: Executor, input: { purpose: 'direct_auth:staff'; subject: string; userId: number; minutes: number; replace: true }): Promise<string>;
}

/** The page that spends a one-time sign-in link, a staff account's or a candidate's: /direct-auth signs the person in. */
export function directAuthUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/direct-auth?token=${encodeURIComponent(token)}`;
}

/** The one-time sign-in links administrators send to staff accounts (ADR 0080). */
export class StaffSignInLinks {
  constructor(
    private readonly links: LinkStore,
    private readonly publicUrl: string,
  ) {}

  /** A new link's token; the account's earlier unused links stop working. */
  create(tx: Executor, userId: number): Promise<string> {
    return this.links.create(tx, { purpose: 'direct_auth:staff', subject: `user:${userId}`, userId, minutes: DISTRIBUTION_LIMITS.staffLinkMinutes, replace: true });
  }

  /** The page that spends it. */
  url(token: string): string {
    return directAuthUrl(this.publicUrl, token);
  }
}
