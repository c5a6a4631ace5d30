-- A customer's merged partial is stored and adjusted by the holdings that changed since it was
-- made. Metrics stored before this have none: each customer is merged whole on its next change.
CREATE TABLE "holding_changes" (
	"account_id" uuid NOT NULL,
	"stock_code" text NOT NULL,
	"merged" jsonb,
	CONSTRAINT "holding_changes_account_id_stock_code_pk" PRIMARY KEY("account_id","stock_code")
);
--> statement-breakpoint
ALTER TABLE "customer_metrics" ADD COLUMN "partial" jsonb;--> statement-breakpoint
ALTER TABLE "metrics_pending" ADD COLUMN "remerge" boolean DEFAULT false NOT NULL;
