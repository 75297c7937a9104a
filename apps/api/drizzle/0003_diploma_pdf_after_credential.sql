ALTER TABLE "diplomas" ALTER COLUMN "pdf_key" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "diplomas" ALTER COLUMN "pdf_sha256" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "diplomas" ALTER COLUMN "pdf_bytes" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "diplomas_pending_pdf_idx" ON "diplomas" USING btree ("generation_id") WHERE "diplomas"."pdf_key" is null;