ALTER TABLE "metrics_pending" ADD COLUMN "reorders_from" date;--> statement-breakpoint
-- A customer already flagged to be placed again from the start keeps that: from the earliest date.
UPDATE "metrics_pending" SET "reorders_from" = '-infinity' WHERE "reorders";--> statement-breakpoint
ALTER TABLE "metrics_pending" DROP COLUMN "reorders";
