-- Open lots move from one JSON value per holding to one row per lot. Partials stored before this
-- have no position (consumed, opened): each holding is recomputed whole on its next change.
ALTER TABLE "holding_metrics" DROP COLUMN "open_lots";--> statement-breakpoint
CREATE TABLE "holding_lots" (
	"account_id" uuid NOT NULL,
	"stock_code" text NOT NULL,
	"at" bigint NOT NULL,
	"lot" json NOT NULL,
	CONSTRAINT "holding_lots_account_id_stock_code_at_pk" PRIMARY KEY("account_id","stock_code","at")
);
--> statement-breakpoint
ALTER TABLE "holding_metrics" ADD COLUMN "consumed" bigint;--> statement-breakpoint
ALTER TABLE "holding_metrics" ADD COLUMN "opened" bigint;
