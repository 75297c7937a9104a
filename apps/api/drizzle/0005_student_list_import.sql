CREATE TABLE "importations" (
	"id" serial PRIMARY KEY NOT NULL,
	"generation_id" integer NOT NULL,
	"kind" varchar(16) NOT NULL,
	"status" varchar(16) DEFAULT 'queued' NOT NULL,
	"file_key" text NOT NULL,
	"photos_key" text,
	"rows_total" integer DEFAULT 0 NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error_key" text,
	"error_params" jsonb,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "national_results" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" integer NOT NULL,
	"candidate_code" varchar(14) NOT NULL,
	"last_name" text NOT NULL,
	"middle_name" text,
	"first_name" text,
	"birth_date" varchar(10) NOT NULL,
	"birth_place" text NOT NULL,
	"gender" varchar(1) NOT NULL,
	"institution_code" varchar(16) NOT NULL,
	"centre_code" varchar(16) NOT NULL,
	"option_code" varchar(16) NOT NULL,
	"percentage_tenths" integer NOT NULL,
	"passed" boolean NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "source_photos_key" text;--> statement-breakpoint
ALTER TABLE "importations" ADD CONSTRAINT "importations_generation_id_generations_id_fk" FOREIGN KEY ("generation_id") REFERENCES "public"."generations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "importations" ADD CONSTRAINT "importations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "national_results" ADD CONSTRAINT "national_results_session_id_exam_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."exam_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "importations_generation_idx" ON "importations" USING btree ("generation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "importations_active_key" ON "importations" USING btree ("generation_id") WHERE "importations"."status" in ('queued', 'running');--> statement-breakpoint
CREATE UNIQUE INDEX "national_results_session_code_key" ON "national_results" USING btree ("session_id","candidate_code");--> statement-breakpoint
CREATE INDEX "national_results_school_idx" ON "national_results" USING btree ("session_id","institution_code");