-- Locales, genders and signature kinds kept within their closed sets (db/schema, @sceau/contracts), as 0010
-- did for statuses. No mapping first: every value written so far came through the same typed sets.
ALTER TABLE "users" ADD CONSTRAINT "users_locale_check" CHECK ("users"."locale" in ('fr', 'en'));--> statement-breakpoint
ALTER TABLE "contact_messages" ADD CONSTRAINT "contact_messages_locale_check" CHECK ("contact_messages"."locale" in ('fr', 'en'));--> statement-breakpoint
ALTER TABLE "archive_mailings" ADD CONSTRAINT "archive_mailings_locale_check" CHECK ("archive_mailings"."locale" in ('fr', 'en'));--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_locale_check" CHECK ("broadcasts"."locale" in ('fr', 'en'));--> statement-breakpoint
ALTER TABLE "national_results" ADD CONSTRAINT "national_results_gender_check" CHECK ("national_results"."gender" in ('M', 'F'));--> statement-breakpoint
ALTER TABLE "generation_items" ADD CONSTRAINT "generation_items_gender_check" CHECK ("generation_items"."gender" in ('M', 'F'));--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_signature_kinds_check" CHECK ("generations"."signature_kinds" <@ array['ministry', 'inspector_general', 'jury']::text[]);--> statement-breakpoint
ALTER TABLE "official_signatures" ADD CONSTRAINT "official_signatures_kind_check" CHECK ("official_signatures"."kind" in ('ministry', 'inspector_general', 'jury'));