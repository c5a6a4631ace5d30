CREATE TABLE "corporate_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp(6) with time zone,
	"account_id" uuid NOT NULL,
	"stock_code" text NOT NULL,
	"isin_code" text NOT NULL,
	"type" text NOT NULL,
	"ex_date" date NOT NULL,
	"pay_date" date NOT NULL,
	"quantity" integer NOT NULL,
	"gross_amount" numeric(20, 4) NOT NULL,
	"tax" numeric(20, 4) NOT NULL,
	CONSTRAINT "corporate_actions_type_check" CHECK ("corporate_actions"."type" in ('cash_dividend', 'share_dividend'))
);
--> statement-breakpoint
ALTER TABLE "corporate_actions" ADD CONSTRAINT "corporate_actions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "corporate_actions_cursor_idx" ON "corporate_actions" USING btree ("updated_at","id");