/**
 * The performance series of one customer (src/domain/performance.ts has the rules), read in one
 * statement: the period's bounds, and per point that the figures need (the anchor at or before
 * the period's start, then every point of the period) the money in and out, with the rows that
 * value the positions and the benchmark at that day's closes. Positions are the stored steps,
 * read through src/db/queries/steps.ts alone, so the read grows with points, steps and closes,
 * never with trades: each position's steps, each code's closes and each code's dividends a day
 * over the period are read once, and the Worker values the points with them, in total and per
 * code (valuePoints, src/domain/performance/valuation.ts, decoded by src/db/queries/performance-row.ts).
 *
 * Closes and sums of money travel as text, exact; a position's cost and a sell's proceeds are
 * fractions and travel as numerator and denominator.
 */
import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { performanceFigures } from "../../domain/performance";
import {
  type UnpricedPosition,
  type ValuedPoint,
  holdingKey,
  inexactHoldings,
  seriesCodes,
  withExactCosts,
} from "../../domain/performance/valuation";
import { exactCosts } from "../../domain/positions";
import { creditTuple, parseCredits, parseTrades, TRADE_TUPLE } from "../deals";
import { type Performance, type PerformanceQuery, Performance as PerformanceSchema } from "../../schemas";
import type { Db } from "../client";
import { accounts, brokers, corporateActions, customers, holdings, staff, stockPrices, transactions } from "../schema";
import { live, servedAccount } from "../served";
import { type StatementValues, valueRow } from "./performance-row";
import { stepsBuilding, stepsOf, stepTuple } from "./steps";
import type { Lookup } from "./types";

const a = alias(accounts, "a");
const ca = alias(corporateActions, "ca");
const p = alias(stockPrices, "p");
const q = alias(stockPrices, "q");
const h = alias(holdings, "h");
const t = alias(transactions, "t");
const c = alias(corporateActions, "c");

/** How far back `range` reaches from e, as a Postgres interval: month arithmetic clamps to the month's last day. */
const PERIODS: Record<string, string> = {
  "1w": "7 days",
  "1m": "1 month",
  "3m": "3 months",
  "6m": "6 months",
  "1y": "1 year",
  "3y": "3 years",
  "5y": "5 years",
};

/** The period's bounds and the points' raw figures, as the figures (src/domain/performance.ts) read them. */
export type ValuedRow = {
  /** Steps not yet built by the sync for one of the customer's holdings (after an upgrade). */
  building: boolean;
  as_of: string | null;
  first_point: string | null;
  /** e; null when no point is on or before `to`. */
  end: string | null;
  /** s, before clamping to the day before the first point. */
  start: string | null;
  anchor: string | null;
  start_close: string | null;
  end_close: string | null;
  /** The benchmark's latest close on or before the first point. */
  first_close: string | null;
  receivable: string;
  mismatch: number;
  points: ValuedPoint[];
};

/**
 * What the statement returns for one customer: the points with their flows only, and the steps,
 * closes and each code's dividends that value them (valuePoints), each ascending by date within
 * its position or code.
 */
export type PerformanceRow = Omit<ValuedRow, "points"> & StatementValues;

/**
 * The statement, not yet sent (the customer page sends it in its batch), for the customer of
 * `slug`: no row when nobody has it.
 */
export function performanceQuery(db: Db, slug: Lookup, query: PerformanceQuery, benchmark: string) {
  return db.execute<PerformanceRow>(performanceSql(slug, query, benchmark));
}

/**
 * Sent before the statement, in the same batch: its many small probes add up to a cost estimate
 * past jit_above_cost, and compiling it took ~220 ms of a ~300 ms read on PostgreSQL 15, as it
 * did for the sync's batches (src/sync/database.ts).
 */
export const withoutJit = (db: Db) => db.execute(sql`set local jit = off`);

/**
 * SQL: the row of `code`'s latest live close on or before `day` (with the tie-break of two closes
 * of one day): the benchmark's closes at the period's ends, and each code's close in force at the
 * start of the points' span. In two steps, its date by max() and then the row of that date, so
 * each is one index probe (stock_prices_stock_date_idx) whatever the planner's statistics: asked
 * as one ORDER BY ... LIMIT 1 on a target whose statistics lagged (a book just loaded), the
 * planner fetched and sorted every earlier close of the stock (seconds a read on the sync bench,
 * when it was asked per point and position).
 */
const latestCloseRow = (code: SQL, day: SQL) => sql`
  select p.stock_code, p.trade_date, p.close_price, p.source_updated_at, p.id from ${stockPrices} p
  where p.stock_code = ${code} and ${live(p)} and p.trade_date = (
    select max(q.trade_date) from ${stockPrices} q where q.stock_code = ${code} and q.trade_date <= ${day} and ${live(q)})
  order by p.source_updated_at desc, p.id desc limit 1`;

/** SQL: that close's close_price, as a value. */
const latestClose = (code: SQL, day: SQL) => sql`(select c.close_price from (${latestCloseRow(code, day)}) c)`;

/** The code the answer compares with: `benchmark` as asked, else the calendar's. */
export const comparedCode = (query: PerformanceQuery, calendar: string) => query.benchmark ?? calendar;

/**
 * The statement itself. `calendar` (BENCHMARK_CODE) gives the points' dates; the closes compared
 * with are `benchmark`'s when the query names one.
 */
function performanceSql(slug: Lookup, query: PerformanceQuery, calendar: string) {
  const benchmark = comparedCode(query, calendar);
  const kind = query.from ? "from" : (query.range ?? "max");
  const period = PERIODS[kind] ?? null;
  return sql`
    with customer as (
      select ${customers.id} as id from ${customers} join ${staff} on ${staff.id} = ${customers.staffId}
      where ${customers.slug} = ${slug} and ${live(customers)}
    ),
    accts as (
      select a.id from ${accounts} a join ${brokers} b on b.id = a.broker_id, customer
      where ${servedAccount(a, sql`customer.id`)} and (${query.broker ?? null}::text is null or lower(b.code) = ${query.broker ?? null})
    ),
    steps as (${stepsOf(sql`select id from accts`)}),
    positions as (select distinct account_id, stock_code from steps),
    divs as (
      select ca.ex_date, ca.pay_date, ca.stock_code, ca.gross_amount - ca.tax as net from ${corporateActions} ca
      where ca.account_id in (select id from accts) and ca.type = 'cash_dividend' and ${live(ca)}
    ),
    bench as (select distinct p.trade_date as d from ${stockPrices} p where p.stock_code = ${calendar} and ${live(p)}),
    cal as (
      select d from bench
      union all
      select distinct p.trade_date from ${stockPrices} p where ${live(p)} and not exists (select from bench)
    ),
    bounds as (
      select first, greatest((select max(d) from cal), (select max(date) from steps where traded)) as as_of
      from (select least((select min(date) from steps), (select min(ex_date) from divs)) as first) f
    ),
    points as (
      select d from cal, bounds where d >= bounds.first and d <= bounds.as_of
      union select date from steps, bounds where date <= bounds.as_of
      union select ex_date from divs, bounds where ex_date <= bounds.as_of
    ),
    ends as (
      select (select max(d) from points where d <= coalesce(${query.to ?? null}::date, bounds.as_of)) as e from bounds
    ),
    starts as (
      select e, greatest('0001-01-01'::date, case ${kind}::text
        when '1d' then coalesce((select max(d) from points where d < e), e - 1)
        when 'ytd' then (date_trunc('year', e) - interval '1 day')::date
        when 'max' then (select min(d) from points) - 1
        when 'from' then ${query.from ?? null}::date - 1
        else (e - ${period}::interval)::date
      end) as s from ends
    ),
    needed as (
      select d from points, starts where d > starts.s and d <= starts.e
      union select max(d) from points, starts where d <= starts.s
    ),
    -- The rows the points are valued with (valuePoints, in the Worker): each position's steps
    -- over the points' span and the last before it, and each code's closes likewise (one index
    -- range per code, one close a day: the tie-break of latestCloseRow). Valuing them here cost 3-8×
    -- reading them: per point and position, probes or window passes over every pair (the
    -- valuation rows in docs/sync.md).
    span as (select min(d) as lo, max(d) as hi from needed),
    codes as (select distinct stock_code as code from positions union select ${benchmark}::text),
    closes as (
      select distinct on (p.stock_code, p.trade_date) p.stock_code, p.trade_date, p.close_price
      from codes k, span, lateral (
        select p.stock_code, p.trade_date, p.close_price, p.source_updated_at, p.id from ${stockPrices} p
        where p.stock_code = k.code and p.trade_date > span.lo and p.trade_date <= span.hi and ${live(p)}
        union all
        select * from (${latestCloseRow(sql`k.code`, sql`span.lo`)}) before
      ) p
      order by p.stock_code, p.trade_date, p.source_updated_at desc, p.id desc
    ),
    span_steps as (
      select s.* from steps s, span where s.date > span.lo and s.date <= span.hi
      union all
      select * from (
        select distinct on (s.account_id, s.stock_code) s.* from steps s, span where s.date <= span.lo
        order by s.account_id, s.stock_code, s.date desc
      ) before
    ),
    today as (select shares, account_id, stock_code from (
      select distinct on (s.account_id, s.stock_code) s.account_id, s.stock_code, s.shares from steps s, bounds
      where s.date <= bounds.as_of order by s.account_id, s.stock_code, s.date desc) t
    ),
    -- Money in and out per day, grouped once: a point joins its day instead of scanning every step.
    flows as (
      select date as d, sum(invested) as invested,
        coalesce(json_agg(json_build_array(withdrawn_num::text, withdrawn_den::text)) filter (where withdrawn_num <> 0), '[]') as withdrawn
      from steps group by date
    ),
    paid as (select ex_date as d, sum(net) as dividends from divs group by ex_date),
    -- The pairs the back office states and their shares: the rows of a pair summed, as the
    -- ledger has one figure per pair (docs/performance.md, "Holdings mismatch").
    held as (
      select h.account_id, h.stock_code, sum(h.quantity) as quantity from ${holdings} h
      where h.account_id in (select id from accts) and ${live(h)} group by h.account_id, h.stock_code
    )
    select
      ${stepsBuilding(sql`select id from accts`)} as building,
      bounds.as_of::text, (select min(d) from points)::text as first_point, starts.e::text as end, starts.s::text as start,
      (select max(d) from needed where d <= starts.s)::text as anchor,
      ${latestClose(sql`${benchmark}`, sql`starts.s`)}::text as start_close,
      ${latestClose(sql`${benchmark}`, sql`coalesce(starts.e, ${query.to ?? null}::date)`)}::text as end_close,
      ${latestClose(sql`${benchmark}`, sql`(select min(d) from points)`)}::text as first_close,
      (select coalesce(sum(net), 0) from divs where ex_date <= starts.e and starts.e < pay_date)::text as receivable,
      (select count(*) from today full join held using (account_id, stock_code)
        where coalesce(today.shares, 0) <> coalesce(held.quantity, 0))::int as mismatch,
      coalesce((
        select json_agg(json_build_object(
          'date', n.d, 'invested', coalesce(f.invested, 0)::text, 'withdrawn', coalesce(f.withdrawn, '[]'),
          'dividends', coalesce(pd.dividends, 0)::text
        ) order by n.d)
        from needed n left join flows f using (d) left join paid pd using (d)
        where n.d is not null
      ), '[]') as points,
      coalesce((
        select json_agg(${stepTuple(sql`s`)} order by s.account_id, s.stock_code, s.date)
        from span_steps s
      ), '[]') as steps,
      -- Each code's cash dividends per point (a zero one too: it is an event of its code).
      coalesce((
        select json_agg(json_build_array(n.d, v.stock_code, v.net::text) order by n.d, v.stock_code)
        from needed n, lateral (select stock_code, sum(net) as net from divs where ex_date = n.d group by stock_code) v
      ), '[]') as dividends_by_code,
      coalesce((
        select json_agg(json_build_array(c.stock_code, c.trade_date, c.close_price::text) order by c.stock_code, c.trade_date)
        from closes c
      ), '[]') as closes
    from customer, bounds, starts`;
}

/** The statement's one row as the figures (src/domain/performance.ts) read it; `calendar` is BENCHMARK_CODE. */
export function performanceOf(
  rows: readonly ValuedRow[],
  query: PerformanceQuery,
  calendar: string,
): Performance | "building" | undefined {
  const row = rows[0];
  if (!row) return undefined;
  if (row.building) return "building";
  if (row.points.some((p) => p.unpriced.some(isInexact)))
    throw new Error("an unpriced position's C is inexact: read the rows through valued() first");
  const figures = performanceFigures({
    range: query.from ? null : (query.range ?? "max"),
    from: query.from ?? null,
    to: query.to ?? null,
    interval: query.interval ?? null,
    benchmark: comparedCode(query, calendar),
    asOf: row.as_of,
    firstPoint: row.first_point,
    end: row.end,
    start: row.start,
    anchor: row.anchor,
    startClose: row.start_close,
    endClose: row.end_close,
    firstClose: row.first_close,
    receivable: row.receivable,
    mismatch: row.mismatch,
    points: row.points.map((p) => ({
      ...p,
      unpriced: p.unpriced.map((u) => [u.costNum, u.costDen] as const),
      codes: seriesCodes(p),
    })),
  });
  // The fields in the document's order.
  return Object.fromEntries(
    Object.keys(PerformanceSchema.shape).map((key) => [key, figures[key as keyof typeof figures]]),
  ) as Performance;
}

/** The customer's performance over the period `query` names; "building" while its steps are not built yet. */
export async function findPerformance(db: Db, slug: Lookup, query: PerformanceQuery, benchmark: string) {
  const [, read] = await db.batch([withoutJit(db), performanceQuery(db, slug, query, benchmark)]);
  return performanceOf(await valued(db, read.rows as PerformanceRow[], comparedCode(query, benchmark)), query, benchmark);
}

const isInexact = (position: UnpricedPosition) => position.costInexact > 0;

/**
 * The statement's rows with their points valued (valuePoints, `compared` the code the answer
 * compares with: comparedCode) and every unpriced position's C exact. The sync stores C exactly
 * while its denominator stays under 10^40, and truncated to the fixed scale past it
 * (src/domain/positions.ts); a point that values such a position at its C (it has no close yet)
 * needs the exact C, so the holdings concerned (inexactHoldings) are read whole and walked
 * exactly: one more round trip, only then (a stock with no close yet, trimmed by enough partial
 * sells to pass that bound).
 */
export async function valued(db: Db, statementRows: PerformanceRow[], compared: string): Promise<ValuedRow[]> {
  const rows = statementRows.map((row) => valueRow(row, compared));
  const row = rows[0];
  const inexact = inexactHoldings(row?.points ?? []);
  if (!row || inexact.length === 0) return rows;
  const dates = new Map(inexact.map((h) => [holdingKey(h.accountId, h.stockCode), h.dates]));
  const keys = JSON.stringify(inexact.map((h) => ({ account_id: h.accountId, stock_code: h.stockCode })));
  const { rows: ledgers } = await db.execute<{ account_id: string; stock_code: string; trades: string; credits: string }>(
    sql`select k.account_id, k.stock_code,
      (select coalesce(json_agg(${TRADE_TUPLE}), '[]')::text from ${transactions} t
        where t.account_id = k.account_id and t.stock_code = k.stock_code and ${live(t)}) as trades,
      (select coalesce(json_agg(${creditTuple("c")}), '[]')::text from ${corporateActions} c
        where c.account_id = k.account_id and c.stock_code = k.stock_code and c.type = 'share_dividend' and ${live(c)}) as credits
    from json_to_recordset(${keys}::json) as k(account_id uuid, stock_code text)`,
  );
  const exact = new Map(
    ledgers.map((l) => {
      const key = holdingKey(l.account_id, l.stock_code);
      return [key, exactCosts(parseTrades(l.trades), parseCredits(l.credits), dates.get(key)!)];
    }),
  );
  return [{ ...row, points: withExactCosts(row.points, exact) }];
}
