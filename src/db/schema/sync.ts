/**
 * The sync's bookkeeping: the work the data left behind (holdings and customers whose stored
 * metrics must be computed again), the rules version those metrics were computed by, where each
 * stream's cursor and a reconciliation stand, the held rows' dates, the lease and the runs.
 */
import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { instant } from "./columns";

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
