CREATE TABLE "holding_months" (
	"account_id" uuid NOT NULL,
	"stock_code" text NOT NULL,
	"month" text NOT NULL,
	"trades" integer NOT NULL,
	"pnl" numeric,
	"pnl_inexact" integer,
	CONSTRAINT "holding_months_account_id_stock_code_month_pk" PRIMARY KEY("account_id","stock_code","month")
);
