/**
 * The back office's tables as the target serves them: every source row (src/db/source.ts),
 * soft-deleted ones included, with three columns of their own (docs/sync.md):
 * - `deleted_at`, the source's tombstone: a soft delete hides a row without losing it, so
 *   restoring it in the source (its owned rows unchanged) serves everything again;
 * - `rejected`, why the sync set the row aside (a row no ledger can hold), null when accepted;
 * - `source_updated_at`, the source's change stamp, which lets the sync write only rows that
 *   really differ.
 * There are no foreign keys between them: a row may arrive before its parent (it waits, unserved,
 * until the parent comes) and a parent may go without its children. What is served is decided
 * where it is read (src/db/served.ts): a row and all its owners live and accepted, its
 * references (staff, broker) present.
 */
import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import {
  accountColumns,
  brokerColumns,
  corporateActionColumns,
  customerColumns,
  holdingColumns,
  staffColumns,
  stockPriceColumns,
  transactionColumns,
} from "../contract";
import { instant } from "./columns";

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

/**
 * Every source close, tombstones and rejected rows included, like the other mirrored tables. No
 * unique (stock_code, trade_date): rows arrive in any order (a close deleted outright and
 * booked again under a new id is repaired by reconciliation), and latest_prices
 * (src/db/schema/prices.ts) decides.
 */
export const stockPrices = pgTable("stock_prices", { id: sourceId(), ...stockPriceColumns(), ...mirrored() }, (t) => [
  // A stock's latest close on or before a day, with the tie-break of two closes of one day
  // (src/sync/prices.ts, src/db/queries/performance.ts): one index tuple per probe, where an
  // index on the date alone made the planner fetch and sort every earlier close of the stock.
  index("stock_prices_stock_date_idx").on(t.stockCode, t.tradeDate.desc(), t.sourceUpdatedAt.desc(), t.id.desc()),
]);

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
