-- The trades' places move from two columns of transactions to a table of their own: placing a
-- day's trades inserts narrow rows, where updating each new trade wrote a new version of it into
-- every index of transactions. The places already built come along, so no history is placed again.
CREATE TABLE "trade_places" (
	"transaction_id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"place" integer NOT NULL,
	"account_place" integer NOT NULL
);
--> statement-breakpoint
INSERT INTO "trade_places" ("transaction_id", "customer_id", "account_id", "place", "account_place")
SELECT "id", "customer_id", "account_id", "ordinal", "account_ordinal" FROM "transactions"
WHERE "ordinal" IS NOT NULL AND "account_ordinal" IS NOT NULL AND "customer_id" IS NOT NULL;--> statement-breakpoint
DROP INDEX "transactions_customer_ordinal_idx";--> statement-breakpoint
DROP INDEX "transactions_account_ordinal_idx";--> statement-breakpoint
DROP INDEX "transactions_unplaced_idx";--> statement-breakpoint
CREATE INDEX "trade_places_customer_idx" ON "trade_places" USING btree ("customer_id","place");--> statement-breakpoint
CREATE INDEX "trade_places_account_idx" ON "trade_places" USING btree ("account_id","account_place");--> statement-breakpoint
ALTER TABLE "transactions" DROP COLUMN "ordinal";--> statement-breakpoint
ALTER TABLE "transactions" DROP COLUMN "account_ordinal";
