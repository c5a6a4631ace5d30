CREATE TABLE "corporate_actions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"stock_code" text NOT NULL,
	"isin_code" text NOT NULL,
	"type" text NOT NULL,
	"ex_date" date NOT NULL,
	"pay_date" date NOT NULL,
	"quantity" integer NOT NULL,
	"gross_amount" numeric(20, 4) NOT NULL,
	"tax" numeric(20, 4) NOT NULL,
	"deleted_at" timestamp(6) with time zone,
	"rejected" text,
	"source_updated_at" timestamp(6) with time zone NOT NULL,
	CONSTRAINT "corporate_actions_type_check" CHECK ("corporate_actions"."type" in ('cash_dividend', 'share_dividend'))
);
--> statement-breakpoint
CREATE TABLE "metrics_rules" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" integer NOT NULL,
	CONSTRAINT "metrics_rules_one_row" CHECK ("metrics_rules"."one")
);
--> statement-breakpoint
CREATE INDEX "corporate_actions_account_date_idx" ON "corporate_actions" USING btree ("account_id","ex_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "corporate_actions_holding_idx" ON "corporate_actions" USING btree ("account_id","stock_code","ex_date","id");--> statement-breakpoint
CREATE INDEX "corporate_actions_rejected_idx" ON "corporate_actions" USING btree ("id") WHERE "corporate_actions"."rejected" is not null;