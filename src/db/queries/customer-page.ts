/**
 * What the customer's page (GET /c/:slug) shows: the aggregate, the latest cash dividends and
 * share credits, today's change and the chosen range's performance, and one page of the trade
 * history, the API's own statements sent as one batch, so the page costs one round trip and
 * reads exactly what /api/aggregate, /api/corporate-actions, /api/performance and
 * /api/transactions read.
 */
import { sql } from "drizzle-orm";
import type { CorporateAction, HistoryFilters, Lookup } from "./types";
import { CorporateActionQuery, type Performance, type PerformanceQuery, type PerformanceRange } from "../../schemas";
import type { Db } from "../client";
import { newestFirst } from "../order";
import { syncRuns } from "../schema";
import { type CorporateActionList, corporateActionsOf, corporateActionsQuery } from "./corporate-actions";
import { type Aggregate, aggregateOf, aggregateQuery } from "./customer";
import { type HistoryPage, historyOf, historyQuery } from "./history";
import { type PerformanceRow, performanceOf, performanceQuery, valued, withoutJit } from "./performance";

/**
 * How many of each kind the page lists, newest first: the corporate-actions list's default page
 * (src/schemas/queries.ts), so the page shows what GET /api/corporate-actions/:slug?type=… answers.
 */
export const RECEIVED_SHOWN: number = CorporateActionQuery.parse({}).per_page;

/** What the accounts received, each kind its own first page and the true total. */
export interface Received {
  dividends: CorporateActionList;
  credits: CorporateActionList;
}

/** One period's performance as GET /api/performance reads it; "building" while the sync builds its steps. */
export type PerformanceRead = Performance | "building";

/** Which performance the page reads: the benchmark, and the chosen range (absent when `range` was invalid). */
export interface PerformanceAsked {
  benchmark: string;
  range?: PerformanceRange;
}

export interface CustomerPage {
  aggregate: Aggregate;
  received: Received;
  /** When the last complete sync run ended (ISO 8601, UTC, to the second): when the figures were last brought from the back office; null before any. */
  syncedAt: string | null;
  /** `range=1d`: today's change, at the top of the page. */
  today: PerformanceRead;
  /** The chosen range; absent when it was invalid (the page then says so). */
  chosen?: PerformanceRead;
  /** Absent when the history filters were invalid: the page then shows the problem instead. */
  history?: HistoryPage;
}

/**
 * Undefined when the slug is unknown. Without a query the history is not read (invalid filters),
 * without a range the chosen period is not (an invalid `range`).
 */
export async function findCustomerPage(
  db: Db,
  slug: Lookup,
  query: HistoryFilters | undefined,
  performance: PerformanceAsked,
): Promise<CustomerPage | undefined> {
  const first = (type: CorporateAction["type"]) => corporateActionsQuery(db, slug, { page: 1, per_page: RECEIVED_SHOWN, type });
  const { benchmark, range } = performance;
  const today = { range: "1d" } as const;
  const chosen = range ? { range } : undefined;
  // The optional statements after the fixed ones, their results read back by the same positions.
  const [, found, dividends, credits, synced, todayRows, ...rest] = await db.batch([
    withoutJit(db),
    aggregateQuery(db, slug),
    first("cash_dividend"),
    first("share_dividend"),
    lastSyncQuery(db),
    performanceQuery(db, slug, today, benchmark),
    ...(chosen ? [performanceQuery(db, slug, chosen, benchmark)] : []),
    ...(query ? [historyQuery(db, { slug }, query)] : []),
  ]);
  const read = pageOf(found.rows, dividends.rows, credits.rows);
  // A second round trip only when an unpriced position's stored C is inexact (valued).
  const exactly = async (rows: unknown[], asked: PerformanceQuery) =>
    performanceOf(await valued(db, rows as PerformanceRow[], benchmark), asked, benchmark);
  const todayRead = await exactly(todayRows.rows, today);
  const chosenRead = chosen ? await exactly(rest.shift()!.rows, chosen) : undefined;
  if (!read || !todayRead || (chosen && !chosenRead)) return undefined;
  const withPerformance = { ...read, syncedAt: synced.rows[0]?.at ?? null, today: todayRead, chosen: chosenRead };
  if (!query) return withPerformance;
  const page = historyOf(rest.shift()!.rows as Parameters<typeof historyOf>[0]);
  return page ? { ...withPerformance, history: page } : undefined;
}

/**
 * The end of the last sync run that read every stream to its bound (outcome `complete`,
 * src/sync/run.ts), newest first by sync_runs_started_idx: a run still going, stopped at its
 * budget or failed has not brought everything the back office had when it began.
 */
function lastSyncQuery(db: Db) {
  return db.execute<{ at: string }>(
    sql`select to_char(${syncRuns.finishedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at from ${syncRuns}
      where ${syncRuns.outcome} = 'complete' and ${syncRuns.finishedAt} is not null
      order by ${newestFirst(syncRuns.startedAt)} limit 1`,
  );
}

type Rows<F extends (...args: never[]) => unknown> = Parameters<F>[0];

function pageOf(
  aggregate: Rows<typeof aggregateOf>,
  dividends: Rows<typeof corporateActionsOf>,
  credits: Rows<typeof corporateActionsOf>,
): Pick<CustomerPage, "aggregate" | "received"> | undefined {
  const found = aggregateOf(aggregate);
  const received = { dividends: corporateActionsOf(dividends), credits: corporateActionsOf(credits) };
  if (!found || !received.dividends || !received.credits) return undefined;
  return { aggregate: found, received: { dividends: received.dividends, credits: received.credits } };
}
