ALTER TABLE "share_links" ADD COLUMN "disclosed" text[] DEFAULT ARRAY['birth_date', 'school', 'percentage', 'photo']::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_disclosed_check" CHECK ("share_links"."disclosed" <@ ARRAY['birth_date', 'birth_place', 'school', 'percentage', 'photo']::text[]);
