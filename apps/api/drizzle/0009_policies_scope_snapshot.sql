ALTER TABLE "generations" ADD COLUMN "signature_snapshot" jsonb;--> statement-breakpoint
-- Staff scopes stored resolved (a school's scope carries its centre and province), so that the
-- policies' "within" is one comparison of three columns in SQL as in code (policies/scope.ts).
UPDATE "users" u SET "centre_id" = i."centre_id", "educ_province_id" = i."educ_province_id"
  FROM "institutions" i WHERE u."institution_id" = i."id";
--> statement-breakpoint
UPDATE "users" u SET "educ_province_id" = c."educ_province_id"
  FROM "centres" c WHERE u."institution_id" IS NULL AND u."centre_id" = c."id";
