/**
 * The back-office (source) tables: the system of record the sync reads from.
 *
 * This is the contract of docs/sync.md: every table has a uuid `id`, the fields of the
 * resources of src/schemas/resources.ts, `updated_at` bumped on every change (a soft delete included) and
 * `deleted_at` for soft deletes. The `(updated_at, id)` index serves the sync's keyset
 * cursor. The local database server creates these tables from `drizzle/source/`.
 */
import { sql } from "drizzle-orm";
import { type AnyPgColumn, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import {
  accountColumns,
  brokerColumns,
  corporateActionColumns,
  customerColumns,
  holdingColumns,
  staffColumns,
  stockPriceColumns,
  transactionColumns,
} from "./contract";

/** Columns every source table carries, and the cursor index built on them. */
const tracked = {
  id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6, mode: "string" }).notNull().defaultNow(),
  deletedAt: timestamp("deleted_at", { withTimezone: true, precision: 6, mode: "string" }),
};

type Referable = { references(ref: () => AnyPgColumn): unknown };

/** A table's contract columns with the foreign keys the source declares on some of them. */
function referencing<C extends { [K in keyof C]: Referable }>(columns: C, parents: { [K in keyof C]?: () => AnyPgColumn }): C {
  for (const name in parents) {
    const parent = parents[name];
    if (parent) columns[name].references(parent);
  }
  return columns;
}

export const sourceBrokers = pgTable("brokers", { ...tracked, ...brokerColumns() }, (t) => [
  index("brokers_cursor_idx").on(t.updatedAt, t.id),
]);

export const sourceStaff = pgTable("staff", { ...tracked, ...staffColumns() }, (t) => [
  index("staff_cursor_idx").on(t.updatedAt, t.id),
]);

export const sourceCustomers = pgTable(
  "customers",
  { ...tracked, slug: text("slug").notNull(), ...referencing(customerColumns(), { staffId: () => sourceStaff.id }) },
  (t) => [index("customers_cursor_idx").on(t.updatedAt, t.id), uniqueIndex("customers_slug_key").on(t.slug)],
);

export const sourceAccounts = pgTable(
  "accounts",
  {
    ...tracked,
    ...referencing(accountColumns(), { customerId: () => sourceCustomers.id, brokerId: () => sourceBrokers.id }),
  },
  (t) => [index("accounts_cursor_idx").on(t.updatedAt, t.id)],
);

export const sourceHoldings = pgTable(
  "holdings",
  { ...tracked, ...referencing(holdingColumns(), { accountId: () => sourceAccounts.id }) },
  (t) => [index("holdings_cursor_idx").on(t.updatedAt, t.id)],
);

export const sourceTransactions = pgTable(
  "transactions",
  { ...tracked, ...referencing(transactionColumns(), { accountId: () => sourceAccounts.id }) },
  (t) => [
    index("transactions_cursor_idx").on(t.updatedAt, t.id),
    check("transactions_type_check", sql`${t.type} in ('buy', 'sell')`),
  ],
);

/** Corporate actions (docs/sync.md): one row per account and event, owned by the account. */
export const sourceCorporateActions = pgTable(
  "corporate_actions",
  { ...tracked, ...referencing(corporateActionColumns(), { accountId: () => sourceAccounts.id }) },
  (t) => [
    index("corporate_actions_cursor_idx").on(t.updatedAt, t.id),
    check("corporate_actions_type_check", sql`${t.type} in ('cash_dividend', 'share_dividend')`),
  ],
);

/**
 * Closing prices: a reference table with no owner (docs/sync.md), one row per stock and trading
 * day. A back office without prices leaves it empty and nothing is valued.
 */
export const sourceStockPrices = pgTable("stock_prices", { ...tracked, ...stockPriceColumns() }, (t) => [
  index("stock_prices_cursor_idx").on(t.updatedAt, t.id),
  uniqueIndex("stock_prices_stock_date_key").on(t.stockCode, t.tradeDate),
]);

/** The synced streams, in foreign-key order: a parent always arrives before its children. */
export const sourceTables = {
  brokers: sourceBrokers,
  staff: sourceStaff,
  customers: sourceCustomers,
  accounts: sourceAccounts,
  holdings: sourceHoldings,
  transactions: sourceTransactions,
  corporate_actions: sourceCorporateActions,
  stock_prices: sourceStockPrices,
} as const;

/*
 * Source rows as they travel as JSON (the demo loader, the tests' fixtures): snake_case
 * columns, money as decimal strings, dates as YYYY-MM-DD.
 */
/** Columns every source row has: `updated_at` with microseconds, `deleted_at` for a soft delete. */
export type SourceRow = {
  id: string;
  updated_at: string;
  deleted_at: string | null;
};

export type BrokerRow = SourceRow & {
  code: string;
  name: string;
};

export type StaffRow = SourceRow & {
  name: string;
  email: string;
};

export type CustomerRow = SourceRow & {
  slug: string;
  name: string;
  email: string;
  phone: string;
  staff_id: string;
};

export type AccountRow = SourceRow & {
  customer_id: string;
  broker_id: string;
  account_no: string;
};

export type HoldingRow = SourceRow & {
  account_id: string;
  stock_code: string;
  isin_code: string;
  quantity: number;
  avg_cost: string;
  total_cost: string;
};

export type TransactionRow = SourceRow & {
  account_id: string;
  trade_date: string;
  stock_code: string;
  isin_code: string;
  type: "buy" | "sell";
  quantity: number;
  price: string;
  total_value: string;
  fee: string;
  personal_tax: string;
};

export type CorporateActionRow = SourceRow & {
  account_id: string;
  stock_code: string;
  isin_code: string;
  type: "cash_dividend" | "share_dividend";
  ex_date: string;
  pay_date: string;
  quantity: number;
  gross_amount: string;
  tax: string;
};

/** A close in đồng per share (a back office storing thousands of đồng converts). */
export type StockPriceRow = SourceRow & {
  stock_code: string;
  trade_date: string;
  close_price: string;
};
