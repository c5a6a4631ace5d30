-- A customer already waiting may have new trades to append: it keeps the probe for them.
ALTER TABLE "metrics_pending" ADD COLUMN "appends" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "metrics_pending" ALTER COLUMN "appends" SET DEFAULT false;
