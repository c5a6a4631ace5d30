CREATE TABLE "customer_histories" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"trades" integer NOT NULL,
	"account_trades" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "held_rows" (
	"stream" text NOT NULL,
	"id" uuid NOT NULL,
	"held_since" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"orphaned_at" timestamp(6) with time zone,
	CONSTRAINT "held_rows_stream_id_pk" PRIMARY KEY("stream","id")
);
--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "ordinal" integer;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "account_ordinal" integer;--> statement-breakpoint
CREATE INDEX "transactions_customer_ordinal_idx" ON "transactions" USING btree ("customer_id","ordinal") WHERE "transactions"."ordinal" is not null;--> statement-breakpoint
CREATE INDEX "transactions_account_ordinal_idx" ON "transactions" USING btree ("account_id","account_ordinal") WHERE "transactions"."account_ordinal" is not null;