CREATE TABLE "share_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"diploma_id" varchar(22) NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"opens" integer DEFAULT 0 NOT NULL,
	"last_opened_at" timestamp with time zone,
	CONSTRAINT "share_links_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "share_links_label_length_check" CHECK (char_length("share_links"."label") <= 80)
);
--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_diploma_id_diplomas_id_fk" FOREIGN KEY ("diploma_id") REFERENCES "public"."diplomas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "share_links_user_idx" ON "share_links" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "share_links_diploma_idx" ON "share_links" USING btree ("diploma_id");--> statement-breakpoint
CREATE INDEX "generation_items_phone_idx" ON "generation_items" USING btree ("phone") WHERE "generation_items"."phone" is not null;--> statement-breakpoint
CREATE INDEX "generation_items_email_idx" ON "generation_items" USING btree ("email") WHERE "generation_items"."email" is not null;