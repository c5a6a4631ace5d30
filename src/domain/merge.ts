/**
 * How a customer's holding partials add up: the rule of each field (PARTIAL_MERGE, which the sync
 * also compiles to SQL in src/sync/merge-sql.ts), the merge into a customer's metrics, and a stored
 * merge adjusted by the holdings that changed without reading the others. Apart from partial.ts
 * (one holding's stored form) because these read many holdings' partials and decide what a
 * change to one of them can move.
 */
import { type Aggregate, emptyAggregate, mergeInto } from "./aggregate";
import { type DividendSums, NO_DIVIDENDS } from "./dividends";
import { finish } from "./finish";
import { type HoldingPartial, PARTIAL_FORMAT, fromPartial, toPartial } from "./partial";
import type { CustomerMetrics } from "./types";

/**
 * How each field of a partial adds up over a customer's holdings, as data for the merge done
 * outside TypeScript: the target adds the partials up in SQL (src/sync/merge-sql.ts), so only one
 * partial per customer, with every holding's top deals, travels to mergePartials. A field added to
 * HoldingPartial must say here how it merges, or this does not compile.
 *
 * - `format`: the same in every partial;
 * - `count`: a sum of JSON numbers; `amount`: a sum of decimal strings;
 * - `min`, `max`: of date strings, nulls ignored;
 * - `fixed`: a PartialSum, sums and inexact counts added;
 * - `counts by month`, `fixed by month`: the same per key of an object;
 * - `deals`: the lists put together (mergePartials ranks them and keeps the top five);
 * - `holding`: one holding's own state, null in a merge.
 */
export type MergeRule =
  | "format"
  | "count"
  | "amount"
  | "min"
  | "max"
  | "fixed"
  | "counts by month"
  | "fixed by month"
  | "deals"
  | "holding";

export const PARTIAL_MERGE = {
  format: "format",
  transactions: "count",
  deals: "count",
  wins: "count",
  losses: "count",
  unmatched_sell_quantity: "count",
  buy_value: "amount",
  sell_value: "amount",
  buy_fee: "amount",
  sell_fee: "amount",
  tax: "amount",
  date_from: "min",
  date_to: "max",
  monthly_trade_counts: "counts by month",
  monthly_pnl: "fixed by month",
  win_pnl: "fixed",
  loss_pnl: "fixed",
  win_days: "fixed",
  loss_days: "fixed",
  average_cost_pnl: "fixed",
  average_cost: "holding",
  top_wins: "deals",
  top_losses: "deals",
} as const satisfies Record<keyof HoldingPartial, MergeRule>;

/**
 * A customer's metrics from its holdings' partials and its cash dividends' sums; equal to
 * computeMetrics over all their trades whenever it is not null. Null means a figure lies within
 * the fixed scale's error of a rounding boundary: only the deals can settle it, so the caller
 * runs computeMetrics.
 */
export function mergePartials(
  partials: readonly HoldingPartial[],
  dividends: DividendSums = NO_DIVIDENDS,
): CustomerMetrics | null {
  return finish(mergedAggregate(partials), undefined, dividends);
}

/**
 * The partials as one, each list of top deals ranked and cut to five: a customer's merge, from
 * the target's sum of its holdings' partials (src/sync/merge-sql.ts), which keeps every deal.
 */
export function combinePartials(partials: readonly HoldingPartial[]): HoldingPartial {
  return toPartial(mergedAggregate(partials));
}

function mergedAggregate(partials: readonly HoldingPartial[]): Aggregate {
  const agg = emptyAggregate();
  for (const p of partials) {
    if (p.format !== PARTIAL_FORMAT) throw new Error(`Partial of format ${String(p.format)}, expected ${PARTIAL_FORMAT}`);
    mergeInto(agg, fromPartial(p));
  }
  return agg;
}
