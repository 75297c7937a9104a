ALTER TABLE "wallet_offers" ADD COLUMN "tx_code_hash" varchar(64);--> statement-breakpoint
ALTER TABLE "wallet_offers" ADD COLUMN "tx_code_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_offers" ADD COLUMN "token_jkt" varchar(64);--> statement-breakpoint
CREATE TABLE "wallet_dpop_proofs" (
	"jti_hash" varchar(64) PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "wallet_dpop_proofs_expires_idx" ON "wallet_dpop_proofs" USING btree ("expires_at");
