CREATE TABLE "latest_prices" (
	"stock_code" text PRIMARY KEY NOT NULL,
	"trade_date" date NOT NULL,
	"close_price" numeric(20, 4) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prices_pending" (
	"stock_code" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_prices" (
	"id" uuid PRIMARY KEY NOT NULL,
	"stock_code" text NOT NULL,
	"trade_date" date NOT NULL,
	"close_price" numeric(20, 4) NOT NULL,
	"deleted_at" timestamp(6) with time zone,
	"rejected" text,
	"source_updated_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "stock_prices_stock_date_idx" ON "stock_prices" USING btree ("stock_code","trade_date" DESC NULLS LAST);