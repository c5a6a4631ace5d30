ALTER TABLE "metrics_pending" ADD COLUMN "reorders" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Customers already waiting were queued by code that placed every pending customer's trades: they keep that.
UPDATE "metrics_pending" SET "reorders" = true;
