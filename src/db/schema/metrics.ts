/**
 * The stored metrics (docs/stored-state.md): what the sync derives from the served copies
 * (src/db/schema/copies.ts) so that stats, analytics, the history's places and the performance
 * answer each cost one lookup to read: per customer its merged figures and its history's places,
 * per holding its partial, monthly figures, open lots and position steps.
 */
import {
  bigint,
  boolean,
  integer,
  json,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  date,
  index,
  uuid,
} from "drizzle-orm/pg-core";
import type { OpenLot } from "../../domain/lots";
import type { HoldingPartial } from "../../domain/partial";
import type { Analytics, Stats } from "../../domain/types";
import { instant } from "./columns";

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
