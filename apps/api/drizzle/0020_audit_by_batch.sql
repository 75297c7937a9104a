ALTER TABLE "audit_log" ADD COLUMN "generation_id" integer;--> statement-breakpoint
UPDATE "audit_log" SET "generation_id" = "subject_id"::integer WHERE "subject_type" = 'generation' AND "subject_id" ~ '^[0-9]{1,9}$';--> statement-breakpoint
UPDATE "audit_log" SET "generation_id" = ("details"->>'generation_id')::integer WHERE "generation_id" IS NULL AND ("details"->>'generation_id') ~ '^[0-9]{1,9}$';--> statement-breakpoint
UPDATE "audit_log" AS a SET "generation_id" = d."generation_id" FROM "diplomas" AS d WHERE a."generation_id" IS NULL AND a."subject_type" = 'diploma' AND a."action" NOT IN ('diploma.share_created', 'diploma.share_revoked') AND d."id" = a."subject_id";--> statement-breakpoint
CREATE INDEX "audit_log_generation_idx" ON "audit_log" USING btree ("generation_id","id") WHERE "audit_log"."generation_id" is not null;
