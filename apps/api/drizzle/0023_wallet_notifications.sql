CREATE TABLE "wallet_notifications" (
	"id" varchar(22) PRIMARY KEY NOT NULL,
	"offer_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "wallet_notifications" ADD CONSTRAINT "wallet_notifications_offer_id_wallet_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."wallet_offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wallet_notifications_offer_idx" ON "wallet_notifications" USING btree ("offer_id");
