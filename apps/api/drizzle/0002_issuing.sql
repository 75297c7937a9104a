CREATE TABLE "diplomas" (
	"id" varchar(22) PRIMARY KEY NOT NULL,
	"item_id" bigint NOT NULL,
	"generation_id" integer NOT NULL,
	"candidate_code" varchar(14) NOT NULL,
	"credential" jsonb NOT NULL,
	"target_hash" varchar(64) NOT NULL,
	"qr_payload" text NOT NULL,
	"pdf_key" text NOT NULL,
	"pdf_sha256" varchar(64) NOT NULL,
	"pdf_bytes" integer NOT NULL,
	"signing_key_id" varchar(64) NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revocation_reason" text,
	"revoked_by" integer,
	"revocation_tx_hash" varchar(66),
	"downloads" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "generation_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"generation_id" integer NOT NULL,
	"candidate_code" varchar(14) NOT NULL,
	"last_name" text NOT NULL,
	"middle_name" text,
	"first_name" text,
	"birth_date" varchar(10) NOT NULL,
	"birth_place" text NOT NULL,
	"gender" varchar(1) NOT NULL,
	"option_id" integer NOT NULL,
	"institution_id" integer NOT NULL,
	"centre_id" integer NOT NULL,
	"percentage_tenths" integer NOT NULL,
	"photo_key" text,
	"photo_status" varchar(16) DEFAULT 'pending' NOT NULL,
	"data_status" varchar(16) DEFAULT 'pending' NOT NULL,
	"rejected" boolean DEFAULT false NOT NULL,
	"rejection_reason" text,
	"rejected_by" integer,
	"rejected_at" timestamp with time zone,
	"source_row" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "generations" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" varchar(32) NOT NULL,
	"template_id" integer NOT NULL,
	"title" text,
	"session_id" integer NOT NULL,
	"educ_province_id" integer NOT NULL,
	"institution_id" integer,
	"centre_id" integer,
	"option_id" integer,
	"status" varchar(32) DEFAULT 'created' NOT NULL,
	"signature_status" varchar(32) DEFAULT 'not_started' NOT NULL,
	"source_file_key" text,
	"merkle_root" varchar(64),
	"anchor_chain_id" integer,
	"anchor_contract" varchar(42),
	"anchor_tx_hash" varchar(66),
	"anchor_block_number" bigint,
	"anchored_at" timestamp with time zone,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"generated_at" timestamp with time zone,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"owner_type" varchar(16) NOT NULL,
	"owner_id" integer NOT NULL,
	"generation_type" varchar(32) NOT NULL,
	"design" jsonb NOT NULL,
	"based_on_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "diplomas" ADD CONSTRAINT "diplomas_item_id_generation_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."generation_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diplomas" ADD CONSTRAINT "diplomas_generation_id_generations_id_fk" FOREIGN KEY ("generation_id") REFERENCES "public"."generations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diplomas" ADD CONSTRAINT "diplomas_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generation_items" ADD CONSTRAINT "generation_items_generation_id_generations_id_fk" FOREIGN KEY ("generation_id") REFERENCES "public"."generations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generation_items" ADD CONSTRAINT "generation_items_option_id_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."options"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generation_items" ADD CONSTRAINT "generation_items_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generation_items" ADD CONSTRAINT "generation_items_centre_id_centres_id_fk" FOREIGN KEY ("centre_id") REFERENCES "public"."centres"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generation_items" ADD CONSTRAINT "generation_items_rejected_by_users_id_fk" FOREIGN KEY ("rejected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_session_id_exam_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."exam_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_educ_province_id_educ_provinces_id_fk" FOREIGN KEY ("educ_province_id") REFERENCES "public"."educ_provinces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_centre_id_centres_id_fk" FOREIGN KEY ("centre_id") REFERENCES "public"."centres"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_option_id_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."options"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "diplomas_item_key" ON "diplomas" USING btree ("item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "diplomas_target_hash_key" ON "diplomas" USING btree ("target_hash");--> statement-breakpoint
CREATE INDEX "diplomas_generation_idx" ON "diplomas" USING btree ("generation_id");--> statement-breakpoint
CREATE INDEX "diplomas_candidate_idx" ON "diplomas" USING btree ("candidate_code");--> statement-breakpoint
CREATE UNIQUE INDEX "generation_items_code_key" ON "generation_items" USING btree ("generation_id","candidate_code");--> statement-breakpoint
CREATE INDEX "generation_items_candidate_idx" ON "generation_items" USING btree ("candidate_code");--> statement-breakpoint
CREATE INDEX "generation_items_filters_idx" ON "generation_items" USING btree ("generation_id","institution_id","centre_id","option_id");--> statement-breakpoint
CREATE INDEX "generations_status_idx" ON "generations" USING btree ("status");--> statement-breakpoint
CREATE INDEX "generations_creator_idx" ON "generations" USING btree ("created_by","created_at");--> statement-breakpoint
CREATE INDEX "generations_session_province_idx" ON "generations" USING btree ("session_id","educ_province_id");--> statement-breakpoint
CREATE INDEX "templates_owner_idx" ON "templates" USING btree ("owner_type","owner_id");