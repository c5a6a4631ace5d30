CREATE TABLE "position_steps" (
	"account_id" uuid NOT NULL,
	"stock_code" text NOT NULL,
	"date" date NOT NULL,
	"traded" boolean NOT NULL,
	"shares" bigint NOT NULL,
	"cost_num" numeric NOT NULL,
	"cost_den" numeric NOT NULL,
	"invested" numeric NOT NULL,
	"withdrawn_num" numeric NOT NULL,
	"withdrawn_den" numeric NOT NULL,
	CONSTRAINT "position_steps_account_id_stock_code_date_pk" PRIMARY KEY("account_id","stock_code","date")
);
