ALTER TABLE "holding_metrics" ADD COLUMN "through" date;--> statement-breakpoint
ALTER TABLE "holding_metrics" ADD COLUMN "open_lots" json;--> statement-breakpoint
ALTER TABLE "holdings_pending" ADD COLUMN "from_date" date;