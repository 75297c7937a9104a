ALTER TABLE "generations" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "revocation_reason" text;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "revoked_by" integer;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "revocation_tx_hash" varchar(66);--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;