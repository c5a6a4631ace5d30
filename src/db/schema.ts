/**
 * The serving (target) database: what the public API reads and the sync writes.
 *
 * The data tables mirror every source row (src/db/source.ts), soft-deleted ones included,
 * with three columns of their own (docs/sync.md):
 * - `deleted_at`, the source's tombstone: a soft delete hides a row without losing it, so
 *   restoring it in the source (its owned rows unchanged) serves everything again;
 * - `rejected`, why the sync set the row aside (a row no ledger can hold), null when accepted;
 * - `source_updated_at`, the source's change stamp, which lets the sync write only rows that
 *   really differ.
 * There are no foreign keys between them: a row may arrive before its parent (it waits, unserved,
 * until the parent comes) and a parent may go without its children. What is served is decided
 * where it is read (src/db/served.ts): a row and all its owners live and accepted, its
 * references (staff, broker) present. The remaining tables belong to the sync and to the
 * stored metrics.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  json,
  numeric,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { OpenLot } from "../domain/lots";
import type { HoldingPartial } from "../domain/partial";
import type { Analytics, Stats } from "../domain/types";
import {
  accountColumns,
  brokerColumns,
  corporateActionColumns,
  customerColumns,
  holdingColumns,
  money,
  staffColumns,
  stockPriceColumns,
  transactionColumns,
} from "./contract";

const instant = (name: string) => timestamp(name, { withTimezone: true, precision: 6, mode: "string" });
/** The columns every synced table adds to its source columns. */
const mirrored = () => ({
  deletedAt: instant("deleted_at"),
  rejected: text("rejected"),
  sourceUpdatedAt: instant("source_updated_at").notNull(),
});
/** The key every synced table takes from its source rows: no default, the source chose it. */
const sourceId = () => uuid("id").primaryKey();

export const brokers = pgTable("brokers", { id: sourceId(), ...brokerColumns(), ...mirrored() }, (t) => [
  index("brokers_code_idx").on(t.code),
]);

export const staff = pgTable("staff", { id: sourceId(), ...staffColumns(), ...mirrored() });

/** The names of the columns every synced table adds, for SQL written as text (src/db/served.ts, src/sync). */
export const MIRRORED = {
  deletedAt: staff.deletedAt.name,
  rejected: staff.rejected.name,
  sourceUpdatedAt: staff.sourceUpdatedAt.name,
} as const;

export const customers = pgTable(
  "customers",
  {
    id: sourceId(),
    // Null while another customer holds the slug the source gave it (src/sync/apply.ts).
    slug: text("slug"),
    ...customerColumns(),
    ...mirrored(),
  },
  (t) => [uniqueIndex("customers_slug_key").on(t.slug), index("customers_staff_idx").on(t.staffId)],
);

export const accounts = pgTable("accounts", { id: sourceId(), ...accountColumns(), ...mirrored() }, (t) => [
  index("accounts_customer_idx").on(t.customerId),
  index("accounts_broker_idx").on(t.brokerId),
]);

export const holdings = pgTable("holdings", { id: sourceId(), ...holdingColumns(), ...mirrored() }, (t) => [
  index("holdings_account_idx").on(t.accountId, t.stockCode),
  index("holdings_rejected_idx").on(t.id).where(sql`${t.rejected} is not null`),
]);

/**
 * `customer_id` is denormalised from the account (the sync keeps it in step) so a customer's
 * history, newest first, is one index range scan however many accounts the customer has. It is
 * null while the account has not arrived: such a trade is held, and the partial index makes
 * counting and listing held trades cheap however long the history.
 */
export const transactions = pgTable(
  "transactions",
  {
    id: sourceId(),
    ...transactionColumns(),
    customerId: uuid("customer_id"),
    ...mirrored(),
  },
  (t) => [
    index("transactions_customer_date_idx").on(t.customerId, t.tradeDate.desc(), t.id.desc()),
    // No index of a customer's trades by code: a history filtered by code reads each served
    // account's range of transactions_holding_idx. One more index of every trade cost a 10M
    // trading day's upsert ~12 s (docs/sync.md, "Why the limits are what they are").
    index("transactions_account_date_idx").on(t.accountId, t.tradeDate.desc(), t.id.desc()),
    // One holding's trades in FIFO order: what recomputing that holding's metrics reads.
    index("transactions_holding_idx").on(t.accountId, t.stockCode, t.tradeDate, t.id),
    index("transactions_held_idx").on(t.accountId).where(sql`${t.customerId} is null`),
    index("transactions_rejected_idx").on(t.id).where(sql`${t.rejected} is not null`),
    check("transactions_type_check", sql`${t.type} in ('buy', 'sell')`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Closing prices and what values the holdings (docs/valuation.md).

/**
 * Every source close, tombstones and rejected rows included, like the other mirrored tables. No
 * unique (stock_code, trade_date): rows arrive in any order (a close deleted outright and
 * booked again under a new id is repaired by reconciliation), and latest_prices decides.
 */
export const stockPrices = pgTable("stock_prices", { id: sourceId(), ...stockPriceColumns(), ...mirrored() }, (t) => [
  // A stock's latest close on or before a day, with the tie-break of two closes of one day
  // (src/sync/prices.ts, src/db/queries/performance.ts): one index tuple per probe, where an
  // index on the date alone made the planner fetch and sort every earlier close of the stock.
  index("stock_prices_stock_date_idx").on(t.stockCode, t.tradeDate.desc(), t.sourceUpdatedAt.desc(), t.id.desc()),
]);

/**
 * The close every holding of a stock is valued at: the live close with the latest trade date.
 * The sync keeps it in step set-based from the codes whose closes changed (prices_pending), so
 * a price day costs one pass over the day's closes; reads join it by stock code, in their one
 * statement, instead of anything being stored per customer.
 */
export const latestPrices = pgTable("latest_prices", {
  stockCode: text("stock_code").primaryKey(),
  tradeDate: date("trade_date", { mode: "string" }).notNull(),
  closePrice: money("close_price").notNull(),
});

/**
 * Stock codes whose latest close may have changed, written with the price rows that changed it
 * (in the same transaction), and emptied when latest_prices is brought up to date.
 */
export const pricesPending = pgTable("prices_pending", {
  stockCode: text("stock_code").primaryKey(),
});

/**
 * What each account received (docs/corporate-actions.md): cash dividends and share credits. Listed by account,
 * newest ex_date first; a holding's share credits, in FIFO order, feed its metrics.
 */
export const corporateActions = pgTable(
  "corporate_actions",
  { id: sourceId(), ...corporateActionColumns(), ...mirrored() },
  (t) => [
    index("corporate_actions_account_date_idx").on(t.accountId, t.exDate.desc(), t.id.desc()),
    index("corporate_actions_holding_idx").on(t.accountId, t.stockCode, t.exDate, t.id),
    index("corporate_actions_rejected_idx").on(t.id).where(sql`${t.rejected} is not null`),
    check("corporate_actions_type_check", sql`${t.type} in ('cash_dividend', 'share_dividend')`),
  ],
);

/**
 * Stats and analytics per customer, as served: the merge of the partials of the holdings in the
 * customer's served accounts, added up in the target at each change (src/sync/customers.ts).
 */
export const customerMetrics = pgTable("customer_metrics", {
  customerId: uuid("customer_id").primaryKey(),
  // json, not jsonb: it keeps the fields in the order src/schemas/resources.ts lists them.
  stats: json("stats").$type<Stats>().notNull(),
  analytics: json("analytics").$type<Analytics>().notNull(),
  computedAt: instant("computed_at").notNull().defaultNow(),
  /**
   * Written null: no merge is kept to adjust (docs/stored-state.md). An older release reads null
   * as "merge the holdings again", so it never adjusts a merge this code did not keep; the column
   * goes in a later migration, once no release reads it.
   */
  partial: jsonb("partial").$type<HoldingPartial>(),
});

/**
 * Each served trade's place in its customer's history, oldest first from 1 (trade date, then id),
 * and in its account's: what makes a page of the unfiltered history an index range scan however
 * deep it is (src/db/queries/history.ts). Written by the sync with the customer's metrics
 * (src/sync/ordinals.ts); current only while the customer has a `customer_histories` row and is
 * not in `metrics_pending`. A table of its own, not columns of `transactions`: placing a day's
 * trades inserts narrow rows into three indexes, where updating each new trade wrote a new
 * version of it into every index of `transactions` (`trade_places` in docs/sync.md).
 */
export const tradePlaces = pgTable(
  "trade_places",
  {
    transactionId: uuid("transaction_id").primaryKey(),
    customerId: uuid("customer_id").notNull(),
    accountId: uuid("account_id").notNull(),
    place: integer("place").notNull(),
    accountPlace: integer("account_place").notNull(),
  },
  (t) => [
    index("trade_places_customer_idx").on(t.customerId, t.place),
    index("trade_places_account_idx").on(t.accountId, t.accountPlace),
  ],
);

/**
 * How many trades each customer's served history holds, in all and per served account (account
 * id to count), written with the trades' places (`trade_places`, src/sync/ordinals.ts): the `total`
 * of an unfiltered history page, and the proof that the places were built. No row: the customer's
 * history is paged by OFFSET until the sync builds it.
 */
export const customerHistories = pgTable("customer_histories", {
  customerId: uuid("customer_id").primaryKey(),
  trades: integer("trades").notNull(),
  accountTrades: jsonb("account_trades").$type<Record<string, number>>().notNull(),
});

/**
 * One holding's (account, stock code) partial aggregates over its accepted, live trades
 * (src/domain: HoldingPartial). A change to a holding's trades recomputes that holding alone;
 * a customer's metrics merge the partials of its live accounts. With the latest trade date
 * the partial covers and where its FIFO queue stands (src/domain: LotsPosition), it is a resume
 * point: a change dated after it continues from there, reading only the newer trades and the
 * open lots their sells reach (holding_lots).
 */
export const holdingMetrics = pgTable(
  "holding_metrics",
  {
    accountId: uuid("account_id").notNull(),
    stockCode: text("stock_code").notNull(),
    partial: jsonb("partial").$type<HoldingPartial>().notNull(),
    through: date("through", { mode: "string" }),
    consumed: bigint("consumed", { mode: "number" }),
    opened: bigint("opened", { mode: "number" }),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.stockCode] })],
);

/**
 * One holding's monthly figures: its trades in the month, and the realized P&L of the deals whose
 * sell falls in it, in the fixed scale (10^-4 đồng × SCALE, src/domain/fixed.ts) within
 * `pnl_inexact` units of the exact sum; both pnl columns null while no deal falls in the month.
 * Rows, not a map in the holding's partial: a day's trades add to their month's row
 * (src/sync/holdings.ts), where the partial carried and rewrote every month of the holding's
 * history, and a customer's monthly figures are a sum over its served accounts' rows
 * (src/sync/customers.ts, docs/stored-state.md).
 */
export const holdingMonths = pgTable(
  "holding_months",
  {
    accountId: uuid("account_id").notNull(),
    stockCode: text("stock_code").notNull(),
    /** YYYY-MM. */
    month: text("month").notNull(),
    trades: integer("trades").notNull(),
    pnl: numeric("pnl"),
    pnlInexact: integer("pnl_inexact"),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.stockCode, t.month] })],
);

/**
 * A holding's open FIFO lots, one row each, keyed by its place in the holding's stream of bought
 * shares (src/domain: PlacedLot), so a day's sells read the few lots at the head and its buys
 * add rows, however many lots stay open behind them.
 */
export const holdingLots = pgTable(
  "holding_lots",
  {
    accountId: uuid("account_id").notNull(),
    stockCode: text("stock_code").notNull(),
    at: bigint("at", { mode: "number" }).notNull(),
    lot: json("lot").$type<OpenLot>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.stockCode, t.at] })],
);

/**
 * One holding's position at the end of each date of its ledger (src/domain/positions.ts): its
 * shares, their average cost C, the money its buys put in and its sells took out that date. The
 * performance read (src/db/queries/performance.ts) values these with the closes per point, so it
 * grows with points and positions, never with trades. Money in 10^-4 đồng, fractions as a
 * numerator and a denominator (whole numbers): a sell's share of cost is rarely a whole unit.
 * Written with the holding's partial (src/sync/holdings.ts).
 */
export const positionSteps = pgTable(
  "position_steps",
  {
    accountId: uuid("account_id").notNull(),
    stockCode: text("stock_code").notNull(),
    date: date("date", { mode: "string" }).notNull(),
    /** A trade is dated here, not only a share credit. */
    traded: boolean("traded").notNull(),
    shares: bigint("shares", { mode: "number" }).notNull(),
    costNum: numeric("cost_num").notNull(),
    costDen: numeric("cost_den").notNull(),
    /**
     * C lies strictly within this many units of 10^-4 đồng / cost_den of the exact C (0: exact):
     * the sync keeps C in the fixed scale (src/domain/positions.ts), and a read that values an
     * unpriced position whose C is inexact walks that holding's ledger exactly instead.
     */
    costInexact: integer("cost_inexact").notNull().default(0),
    invested: numeric("invested").notNull(),
    withdrawnNum: numeric("withdrawn_num").notNull(),
    withdrawnDen: numeric("withdrawn_den").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.stockCode, t.date] })],
);

/**
 * Work the data left behind, written in the same transaction as the data that caused it, so a
 * run stopped before doing it leaves it for the next one: holdings whose partials must be
 * recomputed, and customers whose served data changed (their metrics are merged again and
 * their cached responses invalidated).
 */
export const holdingsPending = pgTable(
  "holdings_pending",
  {
    accountId: uuid("account_id").notNull(),
    stockCode: text("stock_code").notNull(),
    /** The earliest trade date a change touched (before and after it); null: recompute it whole. */
    fromDate: date("from_date", { mode: "string" }),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.stockCode] })],
);

/**
 * One row: the rules version (src/domain: METRICS_RULES) the stored metrics were computed by.
 * The sync compares it with its own on every run (src/sync/rules.ts).
 */
export const metricsRules = pgTable(
  "metrics_rules",
  {
    one: boolean("one").primaryKey().default(true),
    version: integer("version").notNull(),
  },
  (t) => [check("metrics_rules_one_row", sql`${t.one}`)],
);

export const metricsPending = pgTable("metrics_pending", {
  customerId: uuid("customer_id").primaryKey(),
  /**
   * Which accounts the customer is served may have changed (a customer, account or broker
   * changed). Read by older releases only, which adjusted a stored merge unless it was set:
   * every customer is merged from its served accounts now (src/sync/customers.ts).
   */
  remerge: boolean("remerge").notNull().default(false),
  /**
   * The earliest trade date from which its history's places may have changed, when they may
   * have: a trade it had placed moved or went, or one without a place came at or before its last
   * placed trade (that trade's dates, before and after), or `-infinity` when which accounts it is
   * served may have changed. Its history is placed again from that date on (src/sync/ordinals.ts);
   * null: a day's new trades are appended. A dividend, a share credit or a holding row moves no
   * trade's place.
   */
  reordersFrom: date("reorders_from", { mode: "string" }),
  /**
   * A served trade without a place may have come after its last placed one (a day's new trade,
   * one restored or accepted): the trades after that one are appended to its history
   * (src/sync/ordinals.ts). False: nothing is appended, and the probe for new trades is skipped
   * (a dividend, a share credit, a holding row, an edit of a placed trade).
   */
  appends: boolean("appends").notNull().default(false),
});

/**
 * Holdings whose partial changed since their customer's stored merge took them in, each with
 * the partial that merge held: what older releases adjusted a stored merge by. No longer written
 * or read (src/sync/customers.ts merges every customer from its served accounts); kept while an
 * older release may still run beside this one, dropped by a later migration
 * (docs/stored-state.md, "The move").
 */
export const holdingChanges = pgTable(
  "holding_changes",
  {
    accountId: uuid("account_id").notNull(),
    stockCode: text("stock_code").notNull(),
    merged: jsonb("merged").$type<HoldingPartial>(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.stockCode] })],
);

/**
 * Where a full reconciliation stands, one row per table while it is under way: the table has
 * been compared and repaired up to and including `after_id`; `descent` is the differing id range
 * (uuid prefix, with its rows) being split or repaired when a run stopped, so the next run goes
 * straight back into it rather than comparing down from the whole table again; and the rows
 * repaired so far. No rows: none under way.
 */
export const reconcileProgress = pgTable("reconcile_progress", {
  stream: text("stream").primaryKey(),
  afterId: uuid("after_id"),
  descent: text("descent"),
  descentRows: integer("descent_rows"),
  inserted: integer("inserted").notNull().default(0),
  updated: integer("updated").notNull().default(0),
  deleted: integer("deleted").notNull().default(0),
});

/**
 * Every reconciliation, from the run that asked for it (the schedule's or an operator's) to the
 * run that compared the last table: how long it took, over how many runs, and what it repaired
 * per table (`repaired`, written when it completes). Unfinished: under way, or superseded.
 */
export const reconciliations = pgTable(
  "reconciliations",
  {
    id: uuid("id").primaryKey(),
    trigger: text("trigger", { enum: ["manual", "cron", "chain", "start"] }).notNull(),
    startedAt: instant("started_at").notNull(),
    finishedAt: instant("finished_at"),
    runs: integer("runs").notNull().default(0),
    comparedRanges: integer("compared_ranges").notNull().default(0),
    repairedRanges: integer("repaired_ranges").notNull().default(0),
    repaired: jsonb("repaired"),
  },
  (t) => [index("reconciliations_finished_idx").on(t.finishedAt.desc())],
);

/**
 * One keyset cursor per stream: the last (updated_at, id) applied, at microsecond precision; the
 * upper bound of the run that applied it; whether that run read the stream up to its bound; and
 * the earliest point from which rows read since the last re-read may have committed late, which
 * the pass after the stream catches up re-reads (src/sync/cursor.ts); and the page size its backlog
 * is read in since a page took longer than a request may (null: the budget's).
 */
export const syncCursors = pgTable("sync_cursors", {
  stream: text("stream").primaryKey(),
  cursorUpdatedAt: instant("cursor_updated_at").notNull(),
  cursorId: uuid("cursor_id").notNull(),
  upperBound: instant("upper_bound").notNull(),
  caughtUp: boolean("caught_up").notNull().default(true),
  recheckFrom: instant("recheck_from"),
  pageRows: integer("page_rows"),
});

/**
 * Since when each held row (src/sync/held.ts) has been held, and whether a complete
 * reconciliation has found its parent absent from the source (`orphaned_at`): what a held row
 * is stays derived from the data tables, this only dates it. Brought up to date at the end of
 * every run; a row no longer held loses its entry.
 */
export const heldRows = pgTable(
  "held_rows",
  {
    stream: text("stream").notNull(),
    id: uuid("id").notNull(),
    heldSince: instant("held_since").notNull().defaultNow(),
    orphanedAt: instant("orphaned_at"),
  },
  (t) => [primaryKey({ columns: [t.stream, t.id] })],
);

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
    trigger: text("trigger", { enum: ["manual", "cron", "chain", "start"] }).notNull(),
    mode: text("mode", { enum: ["delta", "full"] }).notNull(),
    startedAt: instant("started_at").notNull(),
    finishedAt: instant("finished_at"),
    // "died": it was running when its lease expired (killed, or the isolate went away).
    outcome: text("outcome", { enum: ["running", "complete", "partial", "failed", "died"] }).notNull(),
    syncedRows: integer("synced_rows").notNull().default(0),
    // Rows changed only because a parent changed (a moved account's trades): not in synced_rows.
    derivedRows: integer("derived_rows").notNull().default(0),
    rejectedRows: integer("rejected_rows").notNull().default(0),
    pendingRows: integer("pending_rows").notNull().default(0),
    complete: boolean("complete").notNull().default(false),
    error: text("error"),
    details: jsonb("details"),
  },
  (t) => [index("sync_runs_started_idx").on(t.startedAt.desc())],
);
