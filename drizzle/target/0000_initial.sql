CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"broker_id" uuid NOT NULL,
	"account_no" text NOT NULL,
	"source_updated_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "brokers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"source_updated_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_metrics" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"stats" json NOT NULL,
	"analytics" json NOT NULL,
	"computed_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"staff_id" uuid NOT NULL,
	"source_updated_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "holdings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"stock_code" text NOT NULL,
	"isin_code" text NOT NULL,
	"quantity" integer NOT NULL,
	"avg_cost" numeric(20, 4) NOT NULL,
	"total_cost" numeric(20, 4) NOT NULL,
	"source_updated_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "metrics_pending" (
	"customer_id" uuid PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"source_updated_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_cursors" (
	"stream" text PRIMARY KEY NOT NULL,
	"cursor_updated_at" timestamp(6) with time zone NOT NULL,
	"cursor_id" uuid NOT NULL,
	"upper_bound" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_lease" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" uuid NOT NULL,
	"expires_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL,
	"mode" text NOT NULL,
	"started_at" timestamp(6) with time zone NOT NULL,
	"finished_at" timestamp(6) with time zone,
	"outcome" text NOT NULL,
	"synced_rows" integer DEFAULT 0 NOT NULL,
	"complete" boolean DEFAULT false NOT NULL,
	"error" text,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"trade_date" date NOT NULL,
	"stock_code" text NOT NULL,
	"isin_code" text NOT NULL,
	"type" text NOT NULL,
	"quantity" integer NOT NULL,
	"price" numeric(20, 4) NOT NULL,
	"total_value" numeric(20, 4) NOT NULL,
	"fee" numeric(20, 4) NOT NULL,
	"personal_tax" numeric(20, 4) NOT NULL,
	"source_updated_at" timestamp(6) with time zone NOT NULL,
	CONSTRAINT "transactions_type_check" CHECK ("transactions"."type" in ('buy', 'sell'))
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_metrics" ADD CONSTRAINT "customer_metrics_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holdings" ADD CONSTRAINT "holdings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_customer_idx" ON "accounts" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "accounts_broker_idx" ON "accounts" USING btree ("broker_id");--> statement-breakpoint
CREATE INDEX "brokers_code_idx" ON "brokers" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_slug_key" ON "customers" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "customers_staff_idx" ON "customers" USING btree ("staff_id");--> statement-breakpoint
CREATE INDEX "holdings_account_idx" ON "holdings" USING btree ("account_id","stock_code");--> statement-breakpoint
CREATE INDEX "sync_runs_started_idx" ON "sync_runs" USING btree ("started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transactions_customer_date_idx" ON "transactions" USING btree ("customer_id","trade_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transactions_customer_stock_date_idx" ON "transactions" USING btree ("customer_id","stock_code","trade_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transactions_account_date_idx" ON "transactions" USING btree ("account_id","trade_date" DESC NULLS LAST,"id" DESC NULLS LAST);