import { index, integer, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { createdAt } from './columns.ts';
import { diplomas } from './issuing.ts';

/** Issuance to wallets by OpenID4VCI (ADR 0146). */

/**
 * A credential offer a holder made for one of their diplomas: the pre-authorised code (its SHA-256
 * only) is exchanged once, before `code_expires_at`, for an access token (its SHA-256 only) that
 * obtains the diploma's credentials until `token_expires_at`. With a transaction code (`tx_code`), the
 * exchange also needs that code (its SHA-256 keyed by the pre-authorised code only), and the offer
 * is void after `TX_CODE_MAX_FAILURES` wrong ones. A token bound by DPoP keeps its key's thumbprint.
 */
export const walletOffers = pgTable(
  'wallet_offers',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    diplomaId: varchar('diploma_id', { length: 22 })
      .notNull()
      .references(() => diplomas.id, { onDelete: 'cascade' }),
    codeHash: varchar('code_hash', { length: 64 }).notNull().unique(),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }).notNull(),
    codeUsedAt: timestamp('code_used_at', { withTimezone: true }),
    tokenHash: varchar('token_hash', { length: 64 }).unique(),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    credentialsIssued: integer('credentials_issued').notNull().default(0),
    txCodeHash: varchar('tx_code_hash', { length: 64 }),
    txCodeFailures: integer('tx_code_failures').notNull().default(0),
    /** The JWK SHA-256 thumbprint (RFC 7638) of the key the access token is bound to by DPoP (RFC 9449), if any. */
    tokenJkt: varchar('token_jkt', { length: 64 }),
    createdAt: createdAt(),
  },
  (t) => [index('wallet_offers_user_idx').on(t.userId, t.createdAt), index('wallet_offers_diploma_idx').on(t.diplomaId)],
);

/**
 * The `notification_id` each credential response gave (OpenID4VCI 1.0 section 8.3, ADR 0155): 128
 * random bits in base64url, bound to the offer whose access token obtained the credential, so the
 * notification endpoint accepts it with that token only; deleted with the offer.
 */
export const walletNotifications = pgTable(
  'wallet_notifications',
  {
    id: varchar('id', { length: 22 }).primaryKey(),
    offerId: integer('offer_id')
      .notNull()
      .references(() => walletOffers.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('wallet_notifications_offer_idx').on(t.offerId)],
);

/** The `c_nonce` values the nonce endpoint gave (SHA-256 only): each is spent by one key proof, before it expires. */
export const walletNonces = pgTable(
  'wallet_nonces',
  {
    nonceHash: varchar('nonce_hash', { length: 64 }).primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('wallet_nonces_expires_idx').on(t.expiresAt)],
);

/** The DPoP proofs already seen (SHA-256 of key thumbprint and `jti`), kept until they would be refused as stale anyway. */
export const walletDpopProofs = pgTable(
  'wallet_dpop_proofs',
  {
    jtiHash: varchar('jti_hash', { length: 64 }).primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('wallet_dpop_proofs_expires_idx').on(t.expiresAt)],
);
