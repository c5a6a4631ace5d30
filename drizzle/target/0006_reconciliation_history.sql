-- The history of reconciliations (scheduled nightly, or asked for), the range a stopped one was
-- inside and what it repaired per table, and rows re-derived from a parent counted apart.
CREATE TABLE "reconciliations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL,
	"started_at" timestamp(6) with time zone NOT NULL,
	"finished_at" timestamp(6) with time zone,
	"runs" integer DEFAULT 0 NOT NULL,
	"compared_ranges" integer DEFAULT 0 NOT NULL,
	"repaired_ranges" integer DEFAULT 0 NOT NULL,
	"repaired" jsonb
);
--> statement-breakpoint
ALTER TABLE "reconcile_progress" ADD COLUMN "descent" text;--> statement-breakpoint
ALTER TABLE "reconcile_progress" ADD COLUMN "descent_rows" integer;--> statement-breakpoint
ALTER TABLE "reconcile_progress" ADD COLUMN "inserted" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reconcile_progress" ADD COLUMN "updated" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reconcile_progress" ADD COLUMN "deleted" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "derived_rows" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "reconciliations_finished_idx" ON "reconciliations" USING btree ("finished_at" DESC NULLS LAST);