/**
 * The serving (target) database: what the public API reads and the sync writes.
 *
 * The six data tables mirror the source (src/db/source.ts) minus `deleted_at`: a soft delete
 * in the source is a delete here, and foreign keys cascade so a deleted parent takes its
 * children with it. `source_updated_at` keeps the source's change stamp, which lets the sync
 * write only rows that really differ. The remaining tables belong to the sync and to the
 * stored per-customer metrics.
 */
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  json,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { Analytics, Stats } from "../domain/types";

const money = (name: string) => numeric(name, { precision: 20, scale: 4, mode: "string" });
const instant = (name: string) => timestamp(name, { withTimezone: true, precision: 6, mode: "string" });
const sourceUpdatedAt = () => instant("source_updated_at").notNull();

export const brokers = pgTable(
  "brokers",
  {
    id: uuid("id").primaryKey(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    sourceUpdatedAt: sourceUpdatedAt(),
  },
  (t) => [index("brokers_code_idx").on(t.code)],
);

export const staff = pgTable("staff", {
  id: uuid("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  sourceUpdatedAt: sourceUpdatedAt(),
});

export const customers = pgTable(
  "customers",
  {
    id: uuid("id").primaryKey(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    staffId: uuid("staff_id")
      .notNull()
      .references(() => staff.id, { onDelete: "cascade" }),
    sourceUpdatedAt: sourceUpdatedAt(),
  },
  (t) => [uniqueIndex("customers_slug_key").on(t.slug), index("customers_staff_idx").on(t.staffId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: uuid("id").primaryKey(),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    brokerId: uuid("broker_id")
      .notNull()
      .references(() => brokers.id, { onDelete: "cascade" }),
    accountNo: text("account_no").notNull(),
    sourceUpdatedAt: sourceUpdatedAt(),
  },
  (t) => [index("accounts_customer_idx").on(t.customerId), index("accounts_broker_idx").on(t.brokerId)],
);

export const holdings = pgTable(
  "holdings",
  {
    id: uuid("id").primaryKey(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    stockCode: text("stock_code").notNull(),
    isinCode: text("isin_code").notNull(),
    quantity: integer("quantity").notNull(),
    avgCost: money("avg_cost").notNull(),
    totalCost: money("total_cost").notNull(),
    sourceUpdatedAt: sourceUpdatedAt(),
  },
  (t) => [index("holdings_account_idx").on(t.accountId, t.stockCode)],
);

/**
 * `customer_id` is denormalised from the account (the sync keeps it in step) so a customer's
 * history, newest first, is one index range scan however many accounts the customer has.
 */
export const transactions = pgTable(
  "transactions",
  {
    id: uuid("id").primaryKey(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    customerId: uuid("customer_id").notNull(),
    tradeDate: date("trade_date", { mode: "string" }).notNull(),
    stockCode: text("stock_code").notNull(),
    isinCode: text("isin_code").notNull(),
    type: text("type", { enum: ["buy", "sell"] }).notNull(),
    quantity: integer("quantity").notNull(),
    price: money("price").notNull(),
    totalValue: money("total_value").notNull(),
    fee: money("fee").notNull(),
    personalTax: money("personal_tax").notNull(),
    sourceUpdatedAt: sourceUpdatedAt(),
  },
  (t) => [
    index("transactions_customer_date_idx").on(t.customerId, t.tradeDate.desc(), t.id.desc()),
    index("transactions_customer_stock_date_idx").on(t.customerId, t.stockCode, t.tradeDate.desc(), t.id.desc()),
    index("transactions_account_date_idx").on(t.accountId, t.tradeDate.desc(), t.id.desc()),
    check("transactions_type_check", sql`${t.type} in ('buy', 'sell')`),
  ],
);

/** Stats and analytics per customer, recomputed whenever the customer's trades change. */
export const customerMetrics = pgTable("customer_metrics", {
  customerId: uuid("customer_id")
    .primaryKey()
    .references(() => customers.id, { onDelete: "cascade" }),
  // json, not jsonb: it keeps the fields in the order the spec lists them.
  stats: json("stats").$type<Stats>().notNull(),
  analytics: json("analytics").$type<Analytics>().notNull(),
  computedAt: instant("computed_at").notNull().defaultNow(),
});

/**
 * Customers whose served data changed: their metrics are recomputed and their cached responses
 * invalidated. Written in the same transaction as the data that changed them, so a run stopped
 * before the recompute leaves the work for the next one.
 */
export const metricsPending = pgTable("metrics_pending", {
  customerId: uuid("customer_id").primaryKey(),
});

/**
 * One keyset cursor per stream: the last (updated_at, id) applied, at microsecond precision, and
 * the upper bound of the run that applied it, from which the next run re-reads its overlap
 * window (src/sync/cursor.ts).
 */
export const syncCursors = pgTable("sync_cursors", {
  stream: text("stream").primaryKey(),
  cursorUpdatedAt: instant("cursor_updated_at").notNull(),
  cursorId: uuid("cursor_id").notNull(),
  upperBound: instant("upper_bound").notNull(),
});

/** A single lease row keeps two runs (cron and admin) from overlapping; it expires if a run dies. */
export const syncLease = pgTable("sync_lease", {
  name: text("name").primaryKey(),
  holder: uuid("holder").notNull(),
  expiresAt: instant("expires_at").notNull(),
});

export const syncRuns = pgTable(
  "sync_runs",
  {
    id: uuid("id").primaryKey(),
    trigger: text("trigger", { enum: ["manual", "cron", "start"] }).notNull(),
    mode: text("mode", { enum: ["delta", "full"] }).notNull(),
    startedAt: instant("started_at").notNull(),
    finishedAt: instant("finished_at"),
    outcome: text("outcome", { enum: ["running", "complete", "partial", "failed"] }).notNull(),
    syncedRows: integer("synced_rows").notNull().default(0),
    complete: boolean("complete").notNull().default(false),
    error: text("error"),
    details: jsonb("details"),
  },
  (t) => [index("sync_runs_started_idx").on(t.startedAt.desc())],
);

