CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp(6) with time zone,
	"customer_id" uuid NOT NULL,
	"broker_id" uuid NOT NULL,
	"account_no" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "brokers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp(6) with time zone,
	"code" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp(6) with time zone,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"staff_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "holdings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp(6) with time zone,
	"account_id" uuid NOT NULL,
	"stock_code" text NOT NULL,
	"isin_code" text NOT NULL,
	"quantity" integer NOT NULL,
	"avg_cost" numeric(20, 4) NOT NULL,
	"total_cost" numeric(20, 4) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp(6) with time zone,
	"name" text NOT NULL,
	"email" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp(6) with time zone,
	"account_id" uuid NOT NULL,
	"trade_date" date NOT NULL,
	"stock_code" text NOT NULL,
	"isin_code" text NOT NULL,
	"type" text NOT NULL,
	"quantity" integer NOT NULL,
	"price" numeric(20, 4) NOT NULL,
	"total_value" numeric(20, 4) NOT NULL,
	"fee" numeric(20, 4) NOT NULL,
	"personal_tax" numeric(20, 4) NOT NULL,
	CONSTRAINT "transactions_type_check" CHECK ("transactions"."type" in ('buy', 'sell'))
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holdings" ADD CONSTRAINT "holdings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_cursor_idx" ON "accounts" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "brokers_cursor_idx" ON "brokers" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "customers_cursor_idx" ON "customers" USING btree ("updated_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_slug_key" ON "customers" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "holdings_cursor_idx" ON "holdings" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "staff_cursor_idx" ON "staff" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "transactions_cursor_idx" ON "transactions" USING btree ("updated_at","id");