CREATE TABLE "stock_prices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp(6) with time zone,
	"stock_code" text NOT NULL,
	"trade_date" date NOT NULL,
	"close_price" numeric(20, 4) NOT NULL
);
--> statement-breakpoint
CREATE INDEX "stock_prices_cursor_idx" ON "stock_prices" USING btree ("updated_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_prices_stock_date_key" ON "stock_prices" USING btree ("stock_code","trade_date");