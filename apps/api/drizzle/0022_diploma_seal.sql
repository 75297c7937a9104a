ALTER TABLE "diplomas" ADD COLUMN "seal" bytea;--> statement-breakpoint
ALTER TABLE "diplomas" ADD COLUMN "public_credential" text;
