ALTER TABLE "sync_cursors" ADD COLUMN "caught_up" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_cursors" ADD COLUMN "recheck_from" timestamp(6) with time zone;--> statement-breakpoint
-- Cursors written before this column re-read their run's overlap window (SYNC_OVERLAP_SECONDS, 300 s by default) once.
UPDATE "sync_cursors" SET "recheck_from" = "upper_bound" - interval '300 seconds';
