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
import { type FixedSum, fixedSum, scaledTotal } from "./fixed-sum";
import { type HoldingPartial, PARTIAL_FORMAT, fromPartial, toPartial } from "./partial";
import { TOP_DEALS, type TopDeal, offerTop, rank } from "./top";
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
 * The partials as one, each list of top deals ranked and cut to five: what a customer's merge
 * stores, so a change to one holding can adjust it (adjustMerge).
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

/** A holding's partial before and after a change (null: it had none, or has none now). */
export type HoldingChange = readonly [before: HoldingPartial | null, after: HoldingPartial | null];

/**
 * A customer's merge (combinePartials) after some of its holdings changed, one change after
 * another: equal to combining its holdings' partials again, without reading the others. Sums
 * and counts move by the difference. What cannot be taken back that way comes out null, and
 * the caller merges all the holdings again: an earliest or latest date a holding alone may have
 * held and gave up, a top deal of the holding's that changed or left (another holding's deal
 * may be next in line), a month of deals whose pnl is left at exactly zero (another holding's
 * break-even deal or none at all), a partial of another format. A day's new trades only add
 * deals and dates later than the merge's, so they always adjust. A month whose entries are the
 * same before and after a change moves nothing, so a change may leave it out of both.
 */
export function adjustMerge(merged: HoldingPartial, changes: readonly HoldingChange[]): HoldingPartial | null {
  if ([merged, ...changes.flat()].some((p) => p !== null && p.format !== PARTIAL_FORMAT)) return null;
  const agg = fromPartial(merged);
  const aggregate = (p: HoldingPartial | null) => (p ? fromPartial(p) : emptyAggregate());
  for (const [before, after] of changes) if (!replaceIn(agg, aggregate(before), aggregate(after))) return null;
  return toPartial(agg);
}

/** Replaces `old` by `now` in the merge `c`; false when that needs the other holdings (adjustMerge). */
function replaceIn(c: Aggregate, old: Aggregate, now: Aggregate): boolean {
  for (const key of ["transactions", "deals", "wins", "losses", "unmatched"] as const) c[key] += now[key] - old[key];
  for (const key of ["buyValue", "sellValue", "buyFee", "sellFee", "tax"] as const) c[key] += now[key] - old[key];
  for (const key of ["winPnl", "lossPnl", "winDays", "lossDays", "averagePnl"] as const)
    c[key] = moved(c[key], old[key], now[key]);

  const from = extreme(c.from, old.from, now.from, (a, b) => a < b);
  const to = extreme(c.to, old.to, now.to, (a, b) => a > b);
  if (from === undefined || to === undefined) return false;
  c.from = from;
  c.to = to;

  for (const month of new Set([...old.monthTrades.keys(), ...now.monthTrades.keys()])) {
    const n = (c.monthTrades.get(month) ?? 0) - (old.monthTrades.get(month) ?? 0) + (now.monthTrades.get(month) ?? 0);
    if (n < 0) return false;
    if (n === 0) c.monthTrades.delete(month);
    else c.monthTrades.set(month, n);
  }
  for (const month of new Set([...old.monthPnl.keys(), ...now.monthPnl.keys()])) {
    const rest = moved(c.monthPnl.get(month) ?? fixedSum(), old.monthPnl.get(month) ?? fixedSum(), fixedSum());
    const added = now.monthPnl.get(month);
    if (added) c.monthPnl.set(month, moved(rest, fixedSum(), added));
    // The month keeps its entry while another holding has a deal in it: a sum left over says so.
    else if (rest.scaled !== 0n || rest.inexact !== 0) c.monthPnl.set(month, rest);
    else return false;
  }

  const wins = replaceTop(c.topWins, old.topWins, now.topWins, true);
  const losses = replaceTop(c.topLosses, old.topLosses, now.topLosses, false);
  if (!wins || !losses) return false;
  c.topWins = wins;
  c.topLosses = losses;
  return true;
}

/** `total` - `before` + `after`, all in the fixed scale, their inexact terms counted alike. */
function moved(total: FixedSum, before: FixedSum, after: FixedSum): FixedSum {
  return {
    whole: 0n,
    small: 0,
    scaled: scaledTotal(total) - scaledTotal(before) + scaledTotal(after),
    inexact: total.inexact - before.inexact + after.inexact,
  };
}

/**
 * The earliest (or latest, by `first`) date of a merge once a holding's went from `before` to
 * `after`; undefined when the holding may have held the merge's alone and gave it up.
 */
function extreme(
  merged: string | null,
  before: string | null,
  after: string | null,
  first: (a: string, b: string) => boolean,
): string | null | undefined {
  if (before !== null && before === merged && (after === null || first(before, after))) return undefined;
  return after !== null && (merged === null || first(after, merged)) ? after : merged;
}

/**
 * A merge's top deals once a holding's went from `before` to `after`, or null when that needs
 * the other holdings. A sell belongs to one holding, so its id says whose a deal is. Each of
 * the holding's deals in the merge must be in `after` as it was, or ranked below a full `after`
 * (the holding's own deals fill the places above it); a deal that changed or left would let
 * another holding's deal, which the merge no longer lists, move up.
 */
function replaceTop(merged: TopDeal[], before: TopDeal[], after: TopDeal[], wins: boolean): TopDeal[] | null {
  const own = new Set(before.map((d) => d.sell_id));
  const now = new Map(after.map((d) => [d.sell_id, d]));
  const last = after.length === TOP_DEALS ? after[TOP_DEALS - 1] : undefined;
  const top: TopDeal[] = [];
  for (const deal of merged) {
    const same = now.get(deal.sell_id);
    if (same) {
      if (rank(same, deal, wins) !== 0 || same.shareDays !== deal.shareDays || same.matched !== deal.matched) return null;
    } else if (own.has(deal.sell_id)) {
      if (!last || rank(last, deal, wins) >= 0) return null;
      continue;
    }
    top.push(deal);
  }
  for (const deal of after) if (!top.some((d) => d.sell_id === deal.sell_id)) offerTop(top, deal, wins);
  return top;
}
