/**
 * The differential check: every stored row of a holding's metrics equals what the domain code
 * computes from the holding's whole ledger as the target holds it (docs/stored-state.md, "Every
 * stored row equals a recompute from the ledger"). The sync bench runs it, untimed, after each
 * phase over the holdings the phase touched and prints the count of differences, which must be 0;
 * test/sync/differential.test.ts proves it counts a row that is off.
 *
 * Compared per holding: its partial as stored (without its months) and where its FIFO queue
 * stands (`holding_metrics`), its month rows (`holding_months`), its open lots (`holding_lots`) and
 * its position steps (`position_steps`). A holding is read with its rows in one statement, a
 * batch of holdings at a time, so the check's memory stays that of a batch whatever the book.
 */
import { sql } from "drizzle-orm";
import type pg from "pg";
import { creditTuple, parseCredits, parseTrades, TRADE_TUPLE } from "../../src/db/deals";
import { continuePartial } from "../../src/domain";
import { positionSteps } from "../../src/domain/positions";
import { render } from "../../src/sync/database";
import { monthsOf, withoutMonths } from "../../src/sync/months";
import { stepRow } from "../../src/sync/steps";

/** Runs one statement with positional parameters and gives its rows (a pg client or the tests' Sql, adapted). */
export type Query = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/** The stored tables the check compares, each with how many holdings' rows differ in it. */
export type Differences = Record<"holding" | "months" | "lots" | "steps", number>;

/** One holding whose stored rows differ from the recompute, and in which tables. */
export interface Difference {
  accountId: string;
  stockCode: string;
  tables: (keyof Differences)[];
}

const BATCH = 200;

/**
 * SQL: the next batch of holdings after key ($1, $2) among `holdings` (a select of account_id,
 * stock_code), each with its live accepted trades and share credits and its stored rows as JSON.
 */
const batchOf = (holdings: string) =>
  render(sql`select h.account_id::text as account_id, h.stock_code,
    (select coalesce(json_agg(${TRADE_TUPLE} order by t.trade_date, t.id), '[]')::text from transactions t
      where t.account_id = h.account_id and t.stock_code = h.stock_code and t.deleted_at is null and t.rejected is null) as trades,
    (select coalesce(json_agg(${creditTuple("c")} order by c.ex_date, c.id), '[]')::text from corporate_actions c
      where c.account_id = h.account_id and c.stock_code = h.stock_code and c.type = 'share_dividend'
        and c.deleted_at is null and c.rejected is null) as credits,
    (select json_build_object('partial', m.partial, 'through', m.through, 'consumed', m.consumed, 'opened', m.opened)::text
      from holding_metrics m where m.account_id = h.account_id and m.stock_code = h.stock_code) as holding,
    (select coalesce(json_agg(json_build_object('month', o.month, 'trades', o.trades, 'pnl', o.pnl::text,
        'pnl_inexact', o.pnl_inexact) order by o.month), '[]')::text
      from holding_months o where o.account_id = h.account_id and o.stock_code = h.stock_code) as months,
    (select coalesce(json_agg(json_build_object('at', l.at, 'lot', l.lot) order by l.at), '[]')::text
      from holding_lots l where l.account_id = h.account_id and l.stock_code = h.stock_code) as lots,
    (select coalesce(json_agg(json_build_object('date', s.date, 'traded', s.traded, 'shares', s.shares,
        'cost_num', s.cost_num::text, 'cost_den', s.cost_den::text, 'cost_inexact', s.cost_inexact, 'invested', s.invested::text,
        'withdrawn_num', s.withdrawn_num::text, 'withdrawn_den', s.withdrawn_den::text) order by s.date), '[]')::text
      from position_steps s where s.account_id = h.account_id and s.stock_code = h.stock_code) as steps
    from (select distinct account_id, stock_code from (${sql.raw(holdings)}) k
      where (account_id, stock_code) > ($1::uuid, $2::text) order by 1, 2 limit ${sql.raw(String(BATCH))}) h
    order by h.account_id, h.stock_code`).sql;

/** SQL: every holding the target has a trade, a share credit or a stored metrics row of. */
export const EVERY_HOLDING = `select account_id, stock_code from transactions where account_id is not null
  union select account_id, stock_code from corporate_actions where type = 'share_dividend' and account_id is not null
  union select account_id, stock_code from holding_metrics
  union select account_id, stock_code from holding_months
  union select account_id, stock_code from holding_lots
  union select account_id, stock_code from position_steps`;

/** The tables in which one holding's stored rows differ from those its ledger gives. */
function compare(r: Record<string, unknown>): (keyof Differences)[] {
  const trades = parseTrades(r.trades as string);
  const credits = parseCredits(r.credits as string);
  const accountId = r.account_id as string;
  const stockCode = r.stock_code as string;
  const point = continuePartial(null, trades, credits);
  const holding = point && {
    partial: withoutMonths(point.partial),
    through: point.through,
    consumed: point.position.consumed,
    opened: point.position.opened,
  };
  const expected = {
    holding,
    months: point ? monthsOf(accountId, stockCode, point.partial).map(({ account_id: _a, stock_code: _s, ...m }) => m) : [],
    lots: point?.opened ?? [],
    steps: trades.length
      ? positionSteps(null, trades, credits).map((step) => {
          const { account_id: _a, stock_code: _s, ...columns } = stepRow(accountId, stockCode, step);
          return columns;
        })
      : [],
  };
  const stored = {
    holding: r.holding === null ? null : JSON.parse(r.holding as string),
    months: JSON.parse(r.months as string),
    lots: JSON.parse(r.lots as string),
    steps: JSON.parse(r.steps as string),
  };
  return (Object.keys(expected) as (keyof Differences)[]).filter((k) => canonical(stored[k]) !== canonical(expected[k]));
}

/** `value` as JSON with every object's keys sorted: jsonb gives a partial's keys in its own order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );

/**
 * Every holding of `holdings` (SQL selecting account_id, stock_code; EVERY_HOLDING by default)
 * whose stored rows differ from a recompute of its ledger. Holds at 0 whenever no holding is pending.
 */
export async function storedDifferences(
  query: Query,
  holdings = EVERY_HOLDING,
): Promise<{ checked: number; differences: Difference[] }> {
  const text = batchOf(holdings);
  const differences: Difference[] = [];
  let after = ["00000000-0000-0000-0000-000000000000", ""];
  let checked = 0;
  for (;;) {
    const rows = await query(text, after);
    for (const r of rows) {
      const tables = compare(r);
      if (tables.length) differences.push({ accountId: r.account_id as string, stockCode: r.stock_code as string, tables });
    }
    checked += rows.length;
    if (rows.length < BATCH) return { checked, differences };
    const last = rows.at(-1) as Record<string, unknown>;
    after = [last.account_id as string, last.stock_code as string];
  }
}

/** How many holdings differ in each table. */
export function differencesByTable(differences: readonly Difference[]): Differences {
  const counts: Differences = { holding: 0, months: 0, lots: 0, steps: 0 };
  for (const d of differences) for (const t of d.tables) counts[t]++;
  return counts;
}

/**
 * SQL: the holdings a phase touched: those with a trade or share credit the source changed after
 * `since` (its clock, kept as `source_updated_at`); every holding when `since` is null (the initial sync).
 */
export const touchedSince = (since: string | null): string =>
  since === null
    ? EVERY_HOLDING
    : `select account_id, stock_code from transactions where account_id is not null and source_updated_at > '${since}'::timestamptz
       union select account_id, stock_code from corporate_actions where type = 'share_dividend' and account_id is not null
         and source_updated_at > '${since}'::timestamptz`;

/** A phase's differential check: the holdings it compared and how many differ in each table. */
export interface PhaseCheck {
  checked: number;
  differ: Differences;
}

/** The differential check of the holdings touched since `since`, through a pg client. Untimed. */
export async function checkPhase(client: pg.Client, since: string | null): Promise<PhaseCheck> {
  const { checked, differences } = await storedDifferences(
    async (text, params) => (await client.query(text, params)).rows,
    touchedSince(since),
  );
  return { checked, differ: differencesByTable(differences) };
}

/** One line: how many holdings were compared, and the differences, which must be 0. */
export function printCheck({ checked, differ }: PhaseCheck): string {
  const total = Object.values(differ).reduce((a, b) => a + b, 0);
  const split = Object.entries(differ)
    .map(([table, n]) => `${table} ${n}`)
    .join(", ");
  return `${checked.toLocaleString("en-US")} holdings compared, ${total} differences (${split})`;
}
