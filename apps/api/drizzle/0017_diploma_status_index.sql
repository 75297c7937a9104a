-- The position of each diploma in the ministry's revocation status lists (ADR 0144): given once
-- from a sequence, never reused (a cancelled batch's diplomas leave their numbers unused).
-- Existing diplomas are numbered in the order they were issued.
CREATE SEQUENCE "diploma_status_index_seq" AS integer MINVALUE 0 START WITH 0;--> statement-breakpoint
ALTER TABLE "diplomas" ADD COLUMN "status_index" integer;--> statement-breakpoint
UPDATE "diplomas" AS d SET "status_index" = n."index" FROM (SELECT "id", nextval('diploma_status_index_seq') AS "index" FROM (SELECT "id" FROM "diplomas" ORDER BY "issued_at", "id") AS o) AS n WHERE n."id" = d."id";--> statement-breakpoint
ALTER TABLE "diplomas" ALTER COLUMN "status_index" SET DEFAULT nextval('diploma_status_index_seq');--> statement-breakpoint
ALTER TABLE "diplomas" ALTER COLUMN "status_index" SET NOT NULL;--> statement-breakpoint
ALTER SEQUENCE "diploma_status_index_seq" OWNED BY "diplomas"."status_index";--> statement-breakpoint
CREATE UNIQUE INDEX "diplomas_status_index_key" ON "diplomas" USING btree ("status_index");
