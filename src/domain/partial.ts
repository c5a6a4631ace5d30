/**
 * Per-holding partial aggregates: the sync stores one per (account_id, stock_code) as JSON,
 * recomputes only the holdings whose trades changed, and merges a customer's partials into its
 * metrics (docs/pnl.md). This file is the stored form: its format
 * and fields, the versions that say when stored ones must be recomputed, a holding's partial
 * from its trades, and the conversion to and from an aggregate (aggregate.ts). Continuing a
 * partial with later trades is continuation.ts; merging partials is merge.ts. A partial's size
 * does not grow with its trades, except the monthly maps.
 */
import { type Aggregate, type Counts, addHolding, addTransactions, emptyAggregate } from "./aggregate";
import { loadAverageCost, noAverageCost, type StoredAverageCost, storeAverageCost } from "./average-cost";
import { type FixedSum, scaledTotal } from "./fixed-sum";
import { parseCredit, parseTrade } from "./parse";
import type { TopDeal } from "./top";
import type { CreditInput, TradeInput } from "./types";
import { gcd } from "./units";

/**
 * Bumped whenever the meaning of a stored partial changes (SCALE, a field): a stored partial of
 * another format must be recomputed from its trades, never merged. 5: the sync stores a partial
 * without its monthly maps, which are rows of their own (`holding_months`, src/sync/months.ts).
 */
export const PARTIAL_FORMAT = 5;

/**
 * The version of the rules behind the stored metrics (their fields and how each is computed).
 * Bumped whenever a stored figure changes meaning or a field is added: a target whose recorded
 * version is older (or, written before versions were recorded, has none) recomputes every
 * customer's stored metrics once by itself (src/sync/rules.ts).
 * 1: share credits, average cost, dividends, total_return. 2: the stored total_return is the
 * exact-enough part of total-return.ts (5 places), not a figure rounded to 2 (with
 * PARTIAL_FORMAT 3: the average-cost sum in parts that add up exactly, average-cost.ts).
 * PARTIAL_FORMAT 4 keeps the average cost in the fixed scale; the figures are the same.
 * 3: every holding has its position steps (positions.ts) for the performance figures; until a
 * customer's are built, its performance answer is 503 (src/db/queries/performance.ts).
 * 4: the monthly figures are rows (PARTIAL_FORMAT 5); every holding is recomputed into them.
 */
export const METRICS_RULES = 4;

/** A fixed-scale sum (10^-4 đồng or days, times SCALE): |exact - sum| < inexact. */
export interface PartialSum {
  sum: string;
  inexact: number;
}

export interface PartialDeal {
  /** Exact pnl in 10^-4 đồng: [numerator, denominator > 0], decimal strings. */
  pnl: [string, string];
  /** Exact holding days: [share-days, shares]. */
  days: [number, number];
  sell_date: string;
  stock_code: string;
  /** Settles ties left after sell_date and stock_code. */
  sell_id: string;
}

export interface HoldingPartial extends Counts {
  format: typeof PARTIAL_FORMAT;
  unmatched_sell_quantity: number;
  /** Exact sums in 10^-4 đồng, decimal strings. */
  buy_value: string;
  sell_value: string;
  buy_fee: string;
  sell_fee: string;
  tax: string;
  date_from: string | null;
  date_to: string | null;
  monthly_trade_counts: Record<string, number>;
  /** Deal pnl by month of the sell, fixed scale. */
  monthly_pnl: Record<string, PartialSum>;
  win_pnl: PartialSum;
  loss_pnl: PartialSum;
  win_days: PartialSum;
  loss_days: PartialSum;
  /** Realized P&L by average cost (average-cost.ts), fixed scale. */
  average_cost_pnl: PartialSum;
  /**
   * Where the holding's average cost stands (shares, cost), so a later day continues from it;
   * null in a customer's merge, where it means nothing.
   */
  average_cost: StoredAverageCost | null;
  /** The holding's best five wins and worst five losses, ranked. */
  top_wins: PartialDeal[];
  top_losses: PartialDeal[];
}

/** The partial of ONE holding's trades and share credits, in any order. */
export function holdingPartial(trades: readonly TradeInput[], credits: readonly CreditInput[] = []): HoldingPartial {
  const agg = emptyAggregate();
  const parsed = trades.map(parseTrade);
  addTransactions(agg, parsed);
  agg.average = noAverageCost();
  addHolding(agg, parsed, undefined, undefined, { credits: credits.map(parseCredit), average: agg.average });
  return toPartial(agg);
}

/** An aggregate as a partial stores it: exact sums as decimal strings, maps as sorted objects. */
export function toPartial(agg: Aggregate): HoldingPartial {
  const sum = (s: FixedSum): PartialSum => ({ sum: scaledTotal(s).toString(), inexact: s.inexact });
  const deal = (d: TopDeal): PartialDeal => {
    // Reduced, so one deal stores alike however its lots were split: a customer's adjusted merge
    // and the merge of every holding again then hold the same text (src/sync/customers.ts).
    const g = gcd(d.num < 0n ? -d.num : d.num, d.den);
    return {
      pnl: [(d.num / g).toString(), (d.den / g).toString()],
      days: [d.shareDays, d.matched],
      sell_date: d.sell_date,
      stock_code: d.stock_code,
      sell_id: d.sell_id,
    };
  };
  return {
    format: PARTIAL_FORMAT,
    transactions: agg.transactions,
    deals: agg.deals,
    wins: agg.wins,
    losses: agg.losses,
    unmatched_sell_quantity: agg.unmatched,
    buy_value: agg.buyValue.toString(),
    sell_value: agg.sellValue.toString(),
    buy_fee: agg.buyFee.toString(),
    sell_fee: agg.sellFee.toString(),
    tax: agg.tax.toString(),
    date_from: agg.from,
    date_to: agg.to,
    monthly_trade_counts: Object.fromEntries([...agg.monthTrades].sort(([a], [b]) => (a < b ? -1 : 1))),
    monthly_pnl: Object.fromEntries([...agg.monthPnl].sort(([a], [b]) => (a < b ? -1 : 1)).map(([m, s]) => [m, sum(s)])),
    win_pnl: sum(agg.winPnl),
    loss_pnl: sum(agg.lossPnl),
    win_days: sum(agg.winDays),
    loss_days: sum(agg.lossDays),
    average_cost_pnl: sum(agg.averagePnl),
    average_cost: agg.average ? storeAverageCost(agg.average) : null,
    top_wins: agg.topWins.map(deal),
    top_losses: agg.topLosses.map(deal),
  };
}

/** A stored partial back to the aggregate it was made from, to continue it or merge it. */
export function fromPartial(p: HoldingPartial): Aggregate {
  const sum = (s: PartialSum): FixedSum => ({ whole: 0n, small: 0, scaled: BigInt(s.sum), inexact: s.inexact });
  const deal = (d: PartialDeal): TopDeal => {
    return {
      num: BigInt(d.pnl[0]),
      den: BigInt(d.pnl[1]),
      small: NaN, // compared as fractions: merging reads few deals
      shareDays: d.days[0],
      matched: d.days[1],
      sell_date: d.sell_date,
      stock_code: d.stock_code,
      sell_id: d.sell_id,
    };
  };
  return {
    ...emptyAggregate(),
    transactions: p.transactions,
    deals: p.deals,
    wins: p.wins,
    losses: p.losses,
    unmatched: p.unmatched_sell_quantity,
    buyValue: BigInt(p.buy_value),
    sellValue: BigInt(p.sell_value),
    buyFee: BigInt(p.buy_fee),
    sellFee: BigInt(p.sell_fee),
    tax: BigInt(p.tax),
    from: p.date_from,
    to: p.date_to,
    monthTrades: new Map(Object.entries(p.monthly_trade_counts)),
    monthPnl: new Map(Object.entries(p.monthly_pnl).map(([m, s]) => [m, sum(s)])),
    winPnl: sum(p.win_pnl),
    lossPnl: sum(p.loss_pnl),
    winDays: sum(p.win_days),
    lossDays: sum(p.loss_days),
    averagePnl: sum(p.average_cost_pnl),
    average: p.average_cost ? loadAverageCost(p.average_cost) : null,
    topWins: p.top_wins.map(deal),
    topLosses: p.top_losses.map(deal),
  };
}
