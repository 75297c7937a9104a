-- Issue 15: names searched accents, case and punctuation aside, sorted the Unicode way (ADR 0139).
-- unaccent and pg_trgm are trusted extensions (PostgreSQL 13+): the database's owner may create them.
CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;--> statement-breakpoint
-- lower(unaccent(text)) keeping letters and digits only: "N'SÉLÉ-Kinkole" -> "nselekinkole".
-- unaccent(regdictionary, text) with its dictionary named is immutable in fact; declared so, indexes can hold it.
CREATE OR REPLACE FUNCTION sceau_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT regexp_replace(lower(public.unaccent('public.unaccent'::regdictionary, value)), '[^[:alnum:]]+', '', 'g') $$;--> statement-breakpoint
CREATE INDEX "users_search_idx" ON "users" USING gin (sceau_fold(coalesce("name", '') || ' ' || coalesce("first_name", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "generation_items_search_idx" ON "generation_items" USING gin (sceau_fold(coalesce("last_name", '') || ' ' || coalesce("middle_name", '') || ' ' || coalesce("first_name", '') || ' ' || coalesce("candidate_code", '')) gin_trgm_ops);
