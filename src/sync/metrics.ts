/**
 * Stored metrics that cost what changed (DESIGN §6, §7). The data statements leave two lists
 * behind, in the same transaction as the change (src/sync/apply.ts):
 *
 * 1. `holdings_pending`: holdings (account, stock code) whose trades changed, with the earliest
 *    date a change touched. Each is recomputed alone from its own trades (one index range scan)
 *    into a partial aggregate, stored in `holding_metrics` with the latest trade date it covers
 *    and where its FIFO queue stands, its open lots in `holding_lots`: when every change is
 *    dated after that date, as a new trading day's are, it continues from there, and only the
 *    newer trades and the open lots their sells reach are read. A change to an older trade (or
 *    one more trade on the latest date) recomputes it whole. A customer's other holdings are
 *    not read. The partial the customer's stored merge holds is kept in `holding_changes`.
 * 2. `metrics_pending`: customers whose served data changed. Each one's stats and analytics
 *    come from the merge of the partials of its served accounts' holdings, stored with them:
 *    the stored merge is adjusted by each changed holding's old and new partial
 *    (adjustMerge), so a customer's unchanged holdings are not read. When its accounts may
 *    have changed (`remerge`), or a change cannot be taken back (a top deal of the holding's
 *    left), the target adds up all its holdings' partials in SQL (by the rules of
 *    PARTIAL_MERGE), so one partial per customer travels, not one per holding. Figures are
 *    exact except when one lies within its error bound of a rounding boundary; then, rarely,
 *    the customer's served trades are read and the domain computes it exactly from the deals.
 *
 * Holdings go first, so a customer is merged from partials that are up to date. Each batch is
 * one read and one transaction that stores the results and takes the batch off its list, so a
 * run stopped by its budget leaves the rest for the next run; a batch that took all that was
 * waiting ends its list without another read.
 */
import { getTableName } from "drizzle-orm";
import { customerMetrics, holdingChanges, holdingLots, holdingMetrics, holdingsPending, metricsPending } from "../db/schema";
import { live, servedAccount } from "../db/served";
import {
  adjustMerge,
  combinePartials,
  computeMetrics,
  continuePartial,
  type HoldingChange,
  type HoldingPartial,
  type MergeRule,
  mergePartials,
  PARTIAL_FORMAT,
  PARTIAL_MERGE,
  type PlacedLot,
  type CreditInput,
  type DividendSums,
  NO_DIVIDENDS,
  type ResumePoint,
  type TradeInput,
} from "../domain";
import type { Budget } from "./budget";
import { effect, int, manyRows, text, textOrNull, type SyncDatabase } from "./database";
import { renewLease } from "./lease";
import { parseUnits } from "../domain/units";

export interface MetricsOutcome {
  /** Holdings whose partials were recomputed. */
  holdings: number;
  /** Slugs of the customers whose metrics were stored: their cached responses are stale now. */
  slugs: string[];
  customers: number;
  /** True when nothing is left waiting. */
  done: boolean;
}

const HOLDINGS_PENDING = getTableName(holdingsPending);
const METRICS_PENDING = getTableName(metricsPending);
const HOLDING_METRICS = getTableName(holdingMetrics);
const HOLDING_LOTS = getTableName(holdingLots);
const HOLDING_CHANGES = getTableName(holdingChanges);
const CUSTOMER_METRICS = getTableName(customerMetrics);

/**
 * Holdings per batch at most, however few trades they have: one that continues comes with its
 * stored partial, parsed, continued and written back, so 500 of them took more than a 48 MB heap
 * in the scale benchmark's trading day (when all open lots came too); 200 stay well under it.
 */
const MAX_HOLDINGS = 200;

/** Trade columns as one compact JSON array per trade; money as exact decimal text. */
const TRADE_TUPLE = `json_build_array(t.id, t.account_id, t.trade_date, t.stock_code, t.type, t.quantity,
  t.total_value::text, t.fee::text, t.personal_tax::text)`;
type TradeTuple = [string, string, string, string, "buy" | "sell", number, string, string, string];

function parseTrades(json: string): TradeInput[] {
  return (JSON.parse(json) as TradeTuple[]).map(
    ([id, account_id, trade_date, stock_code, type, quantity, total_value, fee, personal_tax]) => ({
      id,
      account_id,
      trade_date,
      stock_code,
      type,
      quantity,
      total_value,
      fee,
      personal_tax,
    }),
  );
}

/** A share credit as one compact JSON array (DESIGN §6.1): what FIFO needs of a corporate action. */
const creditTuple = (c: string) => `json_build_array(${c}.id, ${c}.account_id, ${c}.stock_code, ${c}.ex_date, ${c}.quantity)`;
type CreditTuple = [string, string, string, string, number];

function parseCredits(json: string): CreditInput[] {
  return (JSON.parse(json) as CreditTuple[]).map(([id, account_id, stock_code, ex_date, quantity]) => ({
    id,
    account_id,
    stock_code,
    ex_date,
    quantity,
  }));
}

// ---------------------------------------------------------------------------------------------
// Holdings

interface PendingHolding {
  accountId: string;
  stockCode: string;
  /**
   * Where its partial continues from, with the open lots the new trades' sells reach; null to
   * recompute it from all its trades.
   */
  resume: ResumePoint | null;
  /** Its accepted, live trades: those dated after the resume point, or all of them. */
  trades: TradeInput[];
  /** Its accepted, live share credits, dated after the resume point or all, like its trades. */
  credits: CreditInput[];
}

interface Batch<T> {
  items: T[];
  /** True when more are waiting than the batch took. */
  more: boolean;
}

/** A pending holding's key, the order its list is worked through in. */
type HoldingKey = [accountId: string, stockCode: string];

/**
 * The first pending holdings after `after` while the trades to read add up to at most
 * `maxTrades` (the first one always comes), each with its resume point (when every change it
 * waits for is dated after that point) and the open lots its new sells reach, and the trades to
 * read: those dated after the point, or all. The account's own state does not matter here: a
 * holding's partial is the same whoever owns the account and whether it is served; the merge
 * decides which partials a customer sees.
 */
async function loadHoldings(target: SyncDatabase, maxTrades: number, after: HoldingKey | null): Promise<Batch<PendingHolding>> {
  // One index range scan (transactions_holding_idx) after the resume point's date, or from the start.
  const holdingTrades = `from transactions t where t.account_id = p.account_id and t.stock_code = p.stock_code
    and t.trade_date > coalesce(p.after, '-infinity'::date) and ${live("t")}`;
  // Its share credits the same way (corporate_actions_holding_idx).
  const holdingCredits = `from corporate_actions c where c.account_id = p.account_id and c.stock_code = p.stock_code
    and c.type = 'share_dividend' and c.ex_date > coalesce(p.after, '-infinity'::date) and ${live("c")}`;
  const [rows] = await target.run([
    manyRows(
      target.sql.query(
        `with candidates as materialized (
           select p.account_id, p.stock_code, p.waiting, m.partial, m.consumed, m.opened,
             case when (m.partial ->> 'format')::int = $3 and m.consumed is not null and p.from_date > m.through
               then m.through end as after
           -- One more than the batch is counted (not read) to tell whether any are left.
           from (
             select *, count(*) over () as waiting from (
               select * from ${HOLDINGS_PENDING} where $4::uuid is null or (account_id, stock_code) > ($4::uuid, $5::text)
               order by account_id, stock_code limit $1 + 1
             ) w order by account_id, stock_code limit $1
           ) p
           left join ${HOLDING_METRICS} m using (account_id, stock_code)
         ),
         -- The trades to read and the shares they sell, in one scan.
         counted as (
           select p.*, n.trades, n.sold, exists (select ${holdingCredits}) as credited from candidates p, lateral (
             select count(*) as trades, coalesce(sum(t.quantity) filter (where t.type = 'sell' and t.quantity > 0), 0) as sold
             ${holdingTrades}
           ) n
         ),
         sized as (
           select *, sum(trades) over (order by account_id, stock_code) as upto, count(*) over () as candidates from counted
         )
         select p.account_id, p.stock_code, p.candidates::int as candidates, p.waiting::int as waiting, p.after::text as after,
           case when p.after is not null then p.partial::text end as partial,
           -- Share counts pass 2^31 but not 2^53: a double carries them exactly, where bigint comes as text.
           p.consumed::float8 as consumed, p.opened::float8 as opened,
           -- The open lots from the head up to where the new sells can reach (lotsReached), or
           -- all of them when a share credit spreads over them.
           case when p.after is not null then (
             select coalesce(json_agg(json_build_object('at', l.at, 'lot', l.lot) order by l.at), '[]')::text
             from ${HOLDING_LOTS} l where l.account_id = p.account_id and l.stock_code = p.stock_code
               and (p.credited or l.at < p.consumed + p.sold)
           ) end as head,
           (select coalesce(json_agg(${TRADE_TUPLE}), '[]')::text ${holdingTrades}) as trades,
           (select coalesce(json_agg(${creditTuple("c")}), '[]')::text ${holdingCredits}) as credits
         from sized p where p.upto - p.trades < $2
         order by p.account_id, p.stock_code`,
        [MAX_HOLDINGS, maxTrades, PARTIAL_FORMAT, after?.[0] ?? null, after?.[1] ?? null],
      ),
      (r) => ({
        candidates: int(r.candidates),
        waiting: int(r.waiting),
        holding: {
          accountId: text(r.account_id),
          stockCode: text(r.stock_code),
          resume:
            r.after === null
              ? null
              : {
                  through: text(r.after),
                  partial: JSON.parse(text(r.partial)) as HoldingPartial,
                  position: { consumed: int(r.consumed), opened: int(r.opened) },
                  head: JSON.parse(text(r.head)) as PlacedLot[],
                },
          trades: parseTrades(text(r.trades)),
          credits: parseCredits(text(r.credits)),
        },
      }),
    ),
  ]);
  const { candidates = 0, waiting = 0 } = rows[0] ?? {};
  return { items: rows.map((r) => r.holding), more: rows.length < candidates || waiting > MAX_HOLDINGS };
}

/**
 * Stores each holding's new partial and position, drops the lots its queue no longer holds (all
 * of them when it was recomputed whole) and adds the lots its trades opened.
 */
async function storeHoldings(target: SyncDatabase, holder: string, batch: PendingHolding[]): Promise<void> {
  const points = batch.map((h) => ({ holding: h, point: continuePartial(h.resume, h.trades, h.credits) }));
  // A holding left without trades has no partial and no lots.
  const computed = points.flatMap(({ holding: h, point }) =>
    point
      ? [{ account_id: h.accountId, stock_code: h.stockCode, partial: point.partial, through: point.through, ...point.position }]
      : [],
  );
  const closed = points.map(({ holding: h, point }) => ({
    account_id: h.accountId,
    stock_code: h.stockCode,
    // Lots ending where the head stands now are closed; a holding recomputed whole, or whose lots
    // a share credit laid out again, keeps none of its old ones.
    upto: h.resume && point && !point.relaid ? point.position.consumed : Number.MAX_SAFE_INTEGER,
  }));
  // One entry per holding, its lots as [at, lot] pairs: a holding recomputed whole can open thousands.
  const opened = points.flatMap(({ holding: h, point }) =>
    point?.opened.length
      ? [{ account_id: h.accountId, stock_code: h.stockCode, lots: point.opened.map((l) => [l.at, l.lot]) }]
      : [],
  );
  const keys = JSON.stringify(batch.map((h) => ({ account_id: h.accountId, stock_code: h.stockCode })));
  await target.run([
    renewLease(target.sql, holder),
    // The partial its customer's stored merge holds, unless an earlier change already recorded it.
    effect(
      target.sql.query(
        `insert into ${HOLDING_CHANGES} (account_id, stock_code, merged)
         select k.account_id, k.stock_code, m.partial from jsonb_to_recordset($1::jsonb) as k(account_id uuid, stock_code text)
         left join ${HOLDING_METRICS} m on m.account_id = k.account_id and m.stock_code = k.stock_code
         on conflict do nothing`,
        [keys],
      ),
    ),
    effect(
      target.sql.query(
        `delete from ${HOLDING_METRICS} m using jsonb_to_recordset($1::jsonb) as k(account_id uuid, stock_code text)
         where m.account_id = k.account_id and m.stock_code = k.stock_code`,
        [keys],
      ),
    ),
    effect(
      target.sql.query(
        `insert into ${HOLDING_METRICS} (account_id, stock_code, partial, through, consumed, opened)
         select account_id, stock_code, partial, through, consumed, opened
         from json_to_recordset($1::json) as r(account_id uuid, stock_code text, partial jsonb, through date, consumed bigint, opened bigint)`,
        [JSON.stringify(computed)],
      ),
    ),
    effect(
      target.sql.query(
        // "l.at < k.upto" bounds the index range scan to the lots at the head.
        `delete from ${HOLDING_LOTS} l using json_to_recordset($1::json) as k(account_id uuid, stock_code text, upto bigint)
         where l.account_id = k.account_id and l.stock_code = k.stock_code
           and l.at < k.upto and l.at + (l.lot ->> 0)::bigint <= k.upto`,
        [JSON.stringify(closed)],
      ),
    ),
    effect(
      target.sql.query(
        `insert into ${HOLDING_LOTS} (account_id, stock_code, at, lot)
         select r.account_id, r.stock_code, (l ->> 0)::bigint, l -> 1
         from json_to_recordset($1::json) as r(account_id uuid, stock_code text, lots json), json_array_elements(r.lots) l`,
        [JSON.stringify(opened)],
      ),
    ),
    effect(
      target.sql.query(
        `delete from ${HOLDINGS_PENDING} p using jsonb_to_recordset($1::jsonb) as k(account_id uuid, stock_code text)
         where p.account_id = k.account_id and p.stock_code = k.stock_code`,
        [keys],
      ),
    ),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Customers

interface PendingCustomer {
  id: string;
  /** False when the target no longer has the customer at all. */
  present: boolean;
  /** Null while another customer holds its slug. */
  slug: string | null;
  /**
   * Its stored merge and each of its served holdings that changed since, as [the partial the
   * merge holds, the partial now] (null: none); null to merge all its holdings again.
   */
  adjust: { merged: HoldingPartial; changes: HoldingChange[] } | null;
  /** Without `adjust`: its served holdings' partials added up by the target, every holding's top deals kept. */
  sum: HoldingPartial | null;
}

/** SQL adding up field `field` of the partials `p` in the relation `parts`, by its merge rule. */
function mergeField(field: string, rule: MergeRule): string {
  const f = `'${field}'`;
  const sum = (value: string, type: string) => `coalesce(sum((${value})::${type}), 0)`;
  const fixed = (value: string) =>
    `json_build_object('sum', ${sum(`${value} ->> 'sum'`, "numeric")}::text, 'inexact', ${sum(`${value} ->> 'inexact'`, "int")})`;
  switch (rule) {
    case "format":
      // An older format in any partial makes the whole merge fall to the exact path.
      return `case when count(*) = 0 then ${PARTIAL_FORMAT} when count(distinct p ->> ${f}) = 1 then min((p ->> ${f})::int) else -1 end`;
    case "count":
      return sum(`p ->> ${f}`, "bigint");
    case "amount":
      return `${sum(`p ->> ${f}`, "numeric")}::text`;
    case "min":
    case "max":
      return `${rule}(p ->> ${f})`;
    case "fixed":
      return fixed(`p -> ${f}`);
    case "counts by month":
      return `(select coalesce(json_object_agg(m.key, m.n), '{}') from (
        select e.key, ${sum("e.value::text", "bigint")} as n from parts, jsonb_each(parts.p -> ${f}) e group by e.key) m)`;
    case "fixed by month":
      return `(select coalesce(json_object_agg(m.key, m.total), '{}') from (
        select e.key, ${fixed("e.value")} as total from parts, jsonb_each(parts.p -> ${f}) e group by e.key) m)`;
    case "deals":
      return `(select coalesce(json_agg(d), '[]') from parts, jsonb_array_elements(parts.p -> ${f}) d)`;
    case "holding":
      return "null";
  }
}

/**
 * SQL: the rows of per-holding table `table` in the accounts customer `c.id` is served, as a
 * relation. What a customer's merge adds up, and what its changes and counts are taken over.
 */
const ofServedAccounts = (table: string) =>
  `(select h.* from ${table} h join accounts a on a.id = h.account_id where ${servedAccount("a", "c.id")})`;

/**
 * SQL: a copy of jsonb value `v` in memory. Each read of a field of a stored partial fetches and
 * decompresses it again, so a query that reads many fields of one reads them from a copy, taken
 * once (in a CTE the planner cannot inline, or it copies at every read).
 */
const copied = (v: string) => `${v} || '{}'::jsonb`;

/** One partial of customer `c.id`'s served holdings, added up in the target (PARTIAL_MERGE). */
const MERGED_PARTIAL = `(
  with parts as (
    -- Read once per field below (500 customers of 10 holdings: 1.33 s -> 0.55 s copied).
    select ${copied("h.partial")} as p from ${ofServedAccounts(HOLDING_METRICS)} h
  )
  select json_build_object(${Object.entries(PARTIAL_MERGE)
    .map(([field, rule]) => `'${field}', ${mergeField(field, rule)}`)
    .join(", ")})::text
  from parts
)`;

/**
 * A stored merge is adjusted while at most one in this many of the customer's holdings changed;
 * beyond that, merging them all in the target costs less. A change brings two partials to the
 * Worker; the merge adds a holding up where it lies and sends one partial per customer. In the
 * sync benchmark's trading day (24 holdings a customer, ~4 changed) adjusting took 2.3 s for
 * 755 customers against 2.8 s merged; in the scale benchmark's (10 holdings a customer, all
 * changed) reading the changes took 1.0 s per 100 customers, and the day's metrics 120.8 s
 * against 57.0 s merged. With the changes' partials copied before their months are compared,
 * merging all 2,345 holdings of 100 customers still took 210 ms of database time against
 * 470-500 ms to read them as changes.
 */
const ADJUST_WHILE_CHANGED = 4;

/** The fields of a partial that are maps by month. */
const MONTHLY = Object.entries(PARTIAL_MERGE)
  .filter(([, rule]) => rule === "counts by month" || rule === "fixed by month")
  .map(([field]) => field);

/**
 * SQL for partial `a` without the monthly entries it shares with partial `b`: a month a change
 * left as it was moves nothing in adjustMerge, and most of a partial is its months.
 */
const apartFrom = (a: string, b: string) =>
  `${a} || jsonb_build_object(${MONTHLY.map(
    (f) => `'${f}', (select coalesce(jsonb_object_agg(e.key, e.value), '{}') from jsonb_each(${a} -> '${f}') e
      where e.value is distinct from ${b} -> '${f}' -> e.key)`,
  ).join(", ")})`;

/**
 * The first `limit` pending customers after `after`, each with its stored merge and the changes
 * of its holdings since, or, when the customer must be merged again, its served holdings'
 * partials added up in the target: what travels is a few partials per customer, not one per
 * holding.
 */
async function loadCustomers(target: SyncDatabase, limit: number, after: string | null): Promise<Batch<PendingCustomer>> {
  const [rows] = await target.run([
    manyRows(
      target.sql.query(
        // One more than the batch is counted (not merged) to tell whether any are left.
        `select b.customer_id, c.id is not null as present, c.slug, b.waiting::int as waiting,
           case when x.adjust then m.partial::text end as merged,
           case when x.adjust then (
             -- apartFrom reads the other side once per month (a batch of the sync benchmark's
             -- trading day, 100 customers adjusted: 225 ms -> 93 ms copied).
             with pairs as materialized (
               select ${copied("h.merged")} as merged, ${copied("hm.partial")} as partial
               from ${ofServedAccounts(HOLDING_CHANGES)} h
               left join ${HOLDING_METRICS} hm on hm.account_id = h.account_id and hm.stock_code = h.stock_code
             )
             select coalesce(json_agg(json_build_array(${apartFrom("p.merged", "p.partial")}, ${apartFrom("p.partial", "p.merged")})), '[]')::text
             from pairs p
           ) end as changes,
           case when not x.adjust then ${MERGED_PARTIAL} end as sum
         from (
           select customer_id, remerge, count(*) over () as waiting from (
             select customer_id, remerge from ${METRICS_PENDING} where $2::uuid is null or customer_id > $2::uuid
             order by customer_id limit $1 + 1
           ) w order by customer_id limit $1
         ) b
         left join customers c on c.id = b.customer_id
         left join ${CUSTOMER_METRICS} m on m.customer_id = b.customer_id
         cross join lateral (
           select not b.remerge and coalesce((m.partial ->> 'format')::int = ${PARTIAL_FORMAT}, false)
             and ${ADJUST_WHILE_CHANGED} * (select count(*) from ${ofServedAccounts(HOLDING_CHANGES)} h)
               <= (select count(*) from ${ofServedAccounts(HOLDING_METRICS)} h)
             as adjust
         ) x
         order by b.customer_id`,
        [limit, after],
      ),
      (r) => ({
        waiting: int(r.waiting),
        customer: {
          id: text(r.customer_id),
          present: r.present === true,
          slug: textOrNull(r.slug),
          adjust:
            r.merged === null
              ? null
              : {
                  merged: JSON.parse(text(r.merged)) as HoldingPartial,
                  changes: JSON.parse(text(r.changes)) as HoldingChange[],
                },
          sum: r.sum === null ? null : (JSON.parse(text(r.sum)) as HoldingPartial),
        },
      }),
    ),
  ]);
  return { items: rows.map((r) => r.customer), more: (rows[0]?.waiting ?? 0) > limit };
}

/** The customers' served holdings' partials added up in the target, for those whose stored merge could not be adjusted. */
async function loadSums(target: SyncDatabase, customers: string[]): Promise<Map<string, HoldingPartial>> {
  if (!customers.length) return new Map();
  const [rows] = await target.run([
    manyRows(
      target.sql.query(`select c.id, ${MERGED_PARTIAL} as sum from customers c where c.id = any($1::uuid[])`, [customers]),
      (r) => [text(r.id), JSON.parse(text(r.sum)) as HoldingPartial] as const,
    ),
  ]);
  return new Map(rows);
}

/** The exact path, for the customers whose merge cannot decide a figure: their served trades. */
async function loadServedTrades(
  target: SyncDatabase,
  customers: string[],
): Promise<Map<string, { trades: TradeInput[]; credits: CreditInput[] }>> {
  if (!customers.length) return new Map();
  const [rows] = await target.run([
    manyRows(
      target.sql.query(
        `select c.id, (
           select coalesce(json_agg(${TRADE_TUPLE}), '[]')::text
           from transactions t join accounts a on a.id = t.account_id
           where t.customer_id = c.id and ${live("t")} and ${servedAccount("a", "c.id")}
         ) as trades, (
           select coalesce(json_agg(${creditTuple("c2")}), '[]')::text
           from corporate_actions c2 join accounts a on a.id = c2.account_id
           where c2.type = 'share_dividend' and ${live("c2")} and ${servedAccount("a", "c.id")}
         ) as credits
         from customers c where c.id = any($1::uuid[])`,
        [customers],
      ),
      (r) => [text(r.id), { trades: parseTrades(text(r.trades)), credits: parseCredits(text(r.credits)) }] as const,
    ),
  ]);
  return new Map(rows);
}

/**
 * Each customer's served cash dividends, summed exactly in the target (DESIGN §6.1): they belong
 * to no holding's partial, since a dividend may come for shares no trade in the data bought.
 */
async function loadDividends(target: SyncDatabase, customers: string[]): Promise<Map<string, DividendSums>> {
  if (!customers.length) return new Map();
  const [rows] = await target.run([
    manyRows(
      target.sql.query(
        `select c.id, s.count, s.gross, s.tax from unnest($1::uuid[]) as c(id), lateral (
           select count(*)::int as count, coalesce(sum(d.gross_amount), 0)::text as gross, coalesce(sum(d.tax), 0)::text as tax
           from corporate_actions d join accounts a on a.id = d.account_id
           where d.type = 'cash_dividend' and ${live("d")} and ${servedAccount("a", "c.id")}
         ) s`,
        [customers],
      ),
      (r) => [text(r.id), { count: int(r.count), gross: parseUnits(text(r.gross)), tax: parseUnits(text(r.tax)) }] as const,
    ),
  ]);
  return new Map(rows);
}

/** A customer's stored merge adjusted by its holdings' changes, or null when it must be merged again. */
const adjusted = (customer: PendingCustomer): HoldingPartial | null =>
  customer.adjust && adjustMerge(customer.adjust.merged, customer.adjust.changes);

/** The merge to store from the target's sum, or null when a holding's partial is of another format. */
const combined = (sum: HoldingPartial): HoldingPartial | null => (sum.format === PARTIAL_FORMAT ? combinePartials([sum]) : null);

async function storeCustomers(target: SyncDatabase, holder: string, batch: PendingCustomer[]): Promise<void> {
  const present = batch.filter((c) => c.present);
  const merges = new Map(present.map((c) => [c.id, adjusted(c) ?? (c.sum && combined(c.sum))]));
  const unadjusted = present.filter((c) => c.adjust && merges.get(c.id) === null).map((c) => c.id);
  for (const [id, sum] of await loadSums(target, unadjusted)) merges.set(id, combined(sum));
  // Without a merge (a partial of another format), or when a figure is undecided, the deals decide.
  const dividends = await loadDividends(
    target,
    present.map((c) => c.id),
  );
  const received = (id: string) => dividends.get(id) ?? NO_DIVIDENDS;
  const metrics = new Map([...merges].map(([id, merge]) => [id, merge && mergePartials([merge], received(id))]));
  const undecided = [...metrics].filter(([, m]) => m === null).map(([id]) => id);
  for (const [id, { trades, credits }] of await loadServedTrades(target, undecided)) {
    metrics.set(id, computeMetrics(trades, credits, received(id)));
  }
  const rows = [...metrics].map(([customer_id, m]) => ({ customer_id, ...m!, partial: merges.get(customer_id) }));
  const ids = batch.map((c) => c.id);
  await target.run([
    renewLease(target.sql, holder),
    // A customer the target no longer has loses its metrics; one merely deleted keeps them for a restore.
    effect(
      target.sql.query(`delete from ${CUSTOMER_METRICS} where customer_id = any($1::uuid[]) and customer_id <> all($2::uuid[])`, [
        ids,
        present.map((c) => c.id),
      ]),
    ),
    effect(
      target.sql.query(
        `insert into ${CUSTOMER_METRICS} (customer_id, stats, analytics, computed_at, partial)
         select r.customer_id, r.stats, r.analytics, now(), r.partial
         from json_to_recordset($1::json) as r(customer_id uuid, stats json, analytics json, partial jsonb)
         on conflict (customer_id) do update
         set stats = excluded.stats, analytics = excluded.analytics, computed_at = excluded.computed_at, partial = excluded.partial`,
        [JSON.stringify(rows)],
      ),
    ),
    // The stored merges hold their holdings' partials now. Changes in accounts a customer is not
    // served matter to no merge: serving the account again merges the customer again.
    effect(
      target.sql.query(
        `delete from ${HOLDING_CHANGES} h using accounts a where a.id = h.account_id and a.customer_id = any($1::uuid[])`,
        [ids],
      ),
    ),
    effect(target.sql.query(`delete from ${METRICS_PENDING} where customer_id = any($1::uuid[])`, [ids])),
  ]);
}

/**
 * Works through a pending list batch by batch while the budget lasts, and says whether it is
 * empty now. The next batch (the keys after the current one's last) is read while the current
 * one is computed and stored, so the target's work and the Worker's overlap; a batch read but
 * not stored when the run stops stays pending for the next run.
 */
async function drain<T, K>(
  budget: Budget,
  list: {
    load: (after: K | null) => Promise<Batch<T>>;
    keyOf: (item: T) => K;
    store: (items: T[]) => Promise<void>;
  },
  onStored: (items: T[]) => void,
): Promise<boolean> {
  const read = (after: K | null) => {
    const batch = list.load(after);
    batch.catch(() => undefined); // a read left behind when the run stops must not be an unhandled rejection
    return batch;
  };
  let next: Promise<Batch<T>> | undefined;
  while (!budget.spent) {
    const batch = await budget.step(async () => {
      const batch = await (next ?? read(null));
      const last = batch.items.at(-1);
      next = batch.more && last ? read(list.keyOf(last)) : undefined;
      if (batch.items.length) await list.store(batch.items);
      return batch;
    });
    onStored(batch.items);
    if (!next) return true;
  }
  return false;
}

/** Works through the pending holdings, then the pending customers, while the budget lasts. */
export async function recomputePending(target: SyncDatabase, budget: Budget, holder: string): Promise<MetricsOutcome> {
  const outcome: MetricsOutcome = { holdings: 0, slugs: [], customers: 0, done: false };
  const holdingsDone = await drain<PendingHolding, HoldingKey>(
    budget,
    {
      load: (after) => loadHoldings(target, budget.limits.metricsTrades, after),
      keyOf: (h) => [h.accountId, h.stockCode],
      store: (items) => storeHoldings(target, holder, items),
    },
    (items) => {
      outcome.holdings += items.length;
    },
  );
  // Customers are merged from partials that are up to date.
  if (!holdingsDone) return outcome;
  outcome.done = await drain<PendingCustomer, string>(
    budget,
    {
      load: (after) => loadCustomers(target, budget.limits.metricsCustomers, after),
      keyOf: (c) => c.id,
      store: (items) => storeCustomers(target, holder, items),
    },
    (items) => {
      outcome.customers += items.length;
      for (const { slug } of items) if (slug !== null) outcome.slugs.push(slug);
    },
  );
  return outcome;
}
