CREATE TABLE "holding_metrics" (
	"account_id" uuid NOT NULL,
	"stock_code" text NOT NULL,
	"partial" jsonb NOT NULL,
	CONSTRAINT "holding_metrics_account_id_stock_code_pk" PRIMARY KEY("account_id","stock_code")
);
--> statement-breakpoint
CREATE TABLE "holdings_pending" (
	"account_id" uuid NOT NULL,
	"stock_code" text NOT NULL,
	CONSTRAINT "holdings_pending_account_id_stock_code_pk" PRIMARY KEY("account_id","stock_code")
);
--> statement-breakpoint
CREATE TABLE "reconcile_progress" (
	"stream" text PRIMARY KEY NOT NULL,
	"after_id" uuid
);
--> statement-breakpoint
ALTER TABLE "accounts" DROP CONSTRAINT "accounts_customer_id_customers_id_fk";
--> statement-breakpoint
ALTER TABLE "accounts" DROP CONSTRAINT "accounts_broker_id_brokers_id_fk";
--> statement-breakpoint
ALTER TABLE "customer_metrics" DROP CONSTRAINT "customer_metrics_customer_id_customers_id_fk";
--> statement-breakpoint
ALTER TABLE "customers" DROP CONSTRAINT "customers_staff_id_staff_id_fk";
--> statement-breakpoint
ALTER TABLE "holdings" DROP CONSTRAINT "holdings_account_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_account_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "slug" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ALTER COLUMN "customer_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "deleted_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "rejected" text;--> statement-breakpoint
ALTER TABLE "brokers" ADD COLUMN "deleted_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "brokers" ADD COLUMN "rejected" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "deleted_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "rejected" text;--> statement-breakpoint
ALTER TABLE "holdings" ADD COLUMN "deleted_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "holdings" ADD COLUMN "rejected" text;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "deleted_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "rejected" text;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "rejected_rows" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "pending_rows" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "deleted_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "rejected" text;--> statement-breakpoint
CREATE INDEX "holdings_rejected_idx" ON "holdings" USING btree ("id") WHERE "holdings"."rejected" is not null;--> statement-breakpoint
CREATE INDEX "transactions_holding_idx" ON "transactions" USING btree ("account_id","stock_code","trade_date","id");--> statement-breakpoint
CREATE INDEX "transactions_held_idx" ON "transactions" USING btree ("account_id") WHERE "transactions"."customer_id" is null;--> statement-breakpoint
CREATE INDEX "transactions_rejected_idx" ON "transactions" USING btree ("id") WHERE "transactions"."rejected" is not null;