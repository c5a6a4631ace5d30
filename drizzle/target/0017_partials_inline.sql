-- The stored partials and merges are JSON of a few kilobytes, written for every holding and
-- customer a run recomputes and read back by the next (docs/benchmarks.md, "partials stored
-- inline"). Kept in the row, compressed only past the target, they skip the TOAST table: no
-- chunks and no TOAST index entries written for each one, none looked up to read it. A holding's
-- partial fits in 4 kB compressed (two rows a page), a customer's row in 8 kB.
ALTER TABLE "holding_metrics" SET (toast_tuple_target = 4080);--> statement-breakpoint
ALTER TABLE "holding_changes" SET (toast_tuple_target = 4080);--> statement-breakpoint
ALTER TABLE "customer_metrics" SET (toast_tuple_target = 8160);--> statement-breakpoint
-- lz4 compresses and decompresses them in about half pglz's time, where the server is built with
-- it (Neon's and Debian's PostgreSQL are; an embedded one may not be): elsewhere pglz stays. A
-- value keeps the method it was written with until it is written again.
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE "holding_metrics" ALTER COLUMN "partial" SET COMPRESSION lz4;
    ALTER TABLE "holding_changes" ALTER COLUMN "merged" SET COMPRESSION lz4;
    ALTER TABLE "customer_metrics" ALTER COLUMN "partial" SET COMPRESSION lz4;
    ALTER TABLE "customer_metrics" ALTER COLUMN "analytics" SET COMPRESSION lz4;
  END IF;
END $$;
