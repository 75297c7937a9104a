CREATE TABLE "diploma_serial_counters" (
	"prefix" varchar(4) NOT NULL,
	"year" integer NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "diploma_serial_counters_prefix_year_pk" PRIMARY KEY("prefix","year")
);
--> statement-breakpoint
ALTER TABLE "diplomas" ADD COLUMN "serial" varchar(20);--> statement-breakpoint
CREATE UNIQUE INDEX "diplomas_serial_key" ON "diplomas" USING btree ("serial");