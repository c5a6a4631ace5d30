/**
 * A holding's monthly figures as rows (`holding_months`, src/db/schema/metrics.ts), apart from its stored
 * partial: a day's trades add to their months' rows, where the partial carried (and rewrote) a
 * map of every month of the holding's history. The partial a holding continues from is stored
 * without its months, so what a continuation adds up in its months is the new trades' and
 * deals' alone: those are added to the rows (`addMonths`); a holding recomputed whole has its
 * rows replaced by those of its whole history, only the ones that differ written (`replaceMonths`). Fixed-scale sums and their inexact counts add up exactly
 * (src/domain/fixed-sum.ts), so the rows hold what the partial of the whole history would.
 */
import { sql } from "drizzle-orm";
import { holdingMonths } from "../db/schema";
import type { HoldingPartial } from "../domain";
import { effect, type Statement } from "./database";

/** One holding's figures in one month, as `holding_months` stores them. */
export interface MonthRow {
  account_id: string;
  stock_code: string;
  month: string;
  trades: number;
  /** Null while no deal falls in the month. */
  pnl: string | null;
  pnl_inexact: number | null;
}

/** The month rows of `partial`'s monthly maps, for holding (account, stock code). */
export function monthsOf(accountId: string, stockCode: string, partial: HoldingPartial): MonthRow[] {
  const months = new Set([...Object.keys(partial.monthly_trade_counts), ...Object.keys(partial.monthly_pnl)]);
  return [...months].sort().map((month) => {
    const pnl = partial.monthly_pnl[month];
    return {
      account_id: accountId,
      stock_code: stockCode,
      month,
      trades: partial.monthly_trade_counts[month] ?? 0,
      pnl: pnl?.sum ?? null,
      pnl_inexact: pnl?.inexact ?? null,
    };
  });
}

/** `partial` as `holding_metrics` stores it: its months are rows of their own. */
export const withoutMonths = (partial: HoldingPartial): HoldingPartial => ({
  ...partial,
  monthly_trade_counts: {},
  monthly_pnl: {},
});

/** Each holding's `value`s of `rows` (rows of holdings, in their order), looked up by the holding's key. */
export function listedByHolding<R extends { account_id: string; stock_code: string }, V>(
  rows: readonly R[],
  value: (row: R) => V,
): (accountId: string, stockCode: string) => V[] {
  const lists = new Map<string, V[]>();
  for (const r of rows) {
    const key = `${r.account_id} ${r.stock_code}`;
    const list = lists.get(key);
    if (list) list.push(value(r));
    else lists.set(key, [value(r)]);
  }
  return (accountId, stockCode) => lists.get(`${accountId} ${stockCode}`) ?? [];
}

const ROWS = (rows: readonly MonthRow[]) =>
  sql`json_to_recordset(${JSON.stringify(rows)}::json) as r(account_id uuid, stock_code text, month text, trades int, pnl numeric, pnl_inexact int)`;

/**
 * Adds `rows` to the holdings' stored months: what a continuation's new trades and deals add up
 * to in each month. A month's pnl stays null while neither side has a deal in it.
 */
export function addMonths(rows: readonly MonthRow[]): Statement<void> {
  return effect(
    sql`insert into ${holdingMonths} as m (account_id, stock_code, month, trades, pnl, pnl_inexact)
     select r.account_id, r.stock_code, r.month, r.trades, r.pnl, r.pnl_inexact from ${ROWS(rows)}
     on conflict (account_id, stock_code, month) do update set
       trades = m.trades + excluded.trades,
       pnl = case when m.pnl is null and excluded.pnl is null then null else coalesce(m.pnl, 0) + coalesce(excluded.pnl, 0) end,
       pnl_inexact = case when m.pnl is null and excluded.pnl is null then null
         else coalesce(m.pnl_inexact, 0) + coalesce(excluded.pnl_inexact, 0) end`,
  );
}

/**
 * Makes `rows` the stored months of `holdings`, recomputed whole: only the months that differ go
 * and come, so an old trade's fee edit rewrites its own month's row (and those of the deals it
 * moved), not the holding's whole history. Each statement is driven by the batch's rows and
 * probes the table by its key; the months a holding no longer has are found against its own list.
 */
export function replaceMonths(
  holdings: readonly { accountId: string; stockCode: string }[],
  rows: readonly MonthRow[],
): Statement<void>[] {
  const monthsListed = listedByHolding(rows, (r) => r.month);
  const keys = JSON.stringify(
    holdings.map((h) => ({ account_id: h.accountId, stock_code: h.stockCode, months: monthsListed(h.accountId, h.stockCode) })),
  );
  return [
    effect(
      sql`delete from ${holdingMonths} m using ${ROWS(rows)}
       where m.account_id = r.account_id and m.stock_code = r.stock_code and m.month = r.month
         and (r.trades, r.pnl, r.pnl_inexact) is distinct from (m.trades, m.pnl, m.pnl_inexact)`,
    ),
    effect(
      sql`delete from ${holdingMonths} m using json_to_recordset(${keys}::json) as k(account_id uuid, stock_code text, months text[])
       where m.account_id = k.account_id and m.stock_code = k.stock_code and not (m.month = any(k.months))`,
    ),
    effect(
      sql`insert into ${holdingMonths} (account_id, stock_code, month, trades, pnl, pnl_inexact)
       select r.account_id, r.stock_code, r.month, r.trades, r.pnl, r.pnl_inexact from ${ROWS(rows)}
       on conflict (account_id, stock_code, month) do nothing`,
    ),
  ];
}
