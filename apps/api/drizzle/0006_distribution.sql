CREATE TABLE "archive_mailings" (
	"id" serial PRIMARY KEY NOT NULL,
	"generation_id" integer NOT NULL,
	"email" text NOT NULL,
	"locale" varchar(2) DEFAULT 'fr' NOT NULL,
	"status" varchar(16) DEFAULT 'queued' NOT NULL,
	"delivery" varchar(16),
	"bytes" bigint,
	"attempts" integer DEFAULT 0 NOT NULL,
	"requested_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "broadcast_deliveries" (
	"broadcast_id" integer NOT NULL,
	"item_id" bigint NOT NULL,
	"status" varchar(16) NOT NULL,
	"email_sent" boolean DEFAULT false NOT NULL,
	"sms_sent" boolean DEFAULT false NOT NULL,
	"error" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broadcast_deliveries_broadcast_id_item_id_pk" PRIMARY KEY("broadcast_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "broadcasts" (
	"id" serial PRIMARY KEY NOT NULL,
	"generation_id" integer NOT NULL,
	"status" varchar(16) DEFAULT 'queued' NOT NULL,
	"locale" varchar(2) DEFAULT 'fr' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"requested_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "generation_items" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "generation_items" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "generation_items" ADD COLUMN "broadcast_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "archive_mailings" ADD CONSTRAINT "archive_mailings_generation_id_generations_id_fk" FOREIGN KEY ("generation_id") REFERENCES "public"."generations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "archive_mailings" ADD CONSTRAINT "archive_mailings_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_deliveries" ADD CONSTRAINT "broadcast_deliveries_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_deliveries" ADD CONSTRAINT "broadcast_deliveries_item_id_generation_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."generation_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_generation_id_generations_id_fk" FOREIGN KEY ("generation_id") REFERENCES "public"."generations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "archive_mailings_generation_idx" ON "archive_mailings" USING btree ("generation_id");--> statement-breakpoint
CREATE INDEX "broadcasts_generation_idx" ON "broadcasts" USING btree ("generation_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "broadcasts_active_key" ON "broadcasts" USING btree ("generation_id") WHERE "broadcasts"."status" in ('queued', 'running');