/**
 * Per-holding partial aggregates (issue 12): the sync stores one per (account_id, stock_code)
 * as JSON, recomputes only the holdings whose trades changed, and merges a customer's partials
 * into its metrics. A partial's size does not grow with its trades, except the monthly maps.
 */
import {
  type Aggregate,
  type FixedSum,
  type TopDeal,
  addHolding,
  addTransactions,
  emptyAggregate,
  mergeInto,
  scaledTotal,
} from "./aggregate";
import { parseTrade } from "./fifo";
import { finish } from "./finish";
import type { CustomerMetrics, TradeInput } from "./types";

/**
 * Bumped whenever the meaning of a stored partial changes (SCALE, a field): a stored partial of
 * another format must be recomputed from its trades, never merged.
 */
export const PARTIAL_FORMAT = 1;

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

export interface HoldingPartial {
  format: typeof PARTIAL_FORMAT;
  transactions: number;
  deals: number;
  wins: number;
  losses: number;
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
  /** The holding's best five wins and worst five losses, ranked. */
  top_wins: PartialDeal[];
  top_losses: PartialDeal[];
}

/** The partial of ONE holding's trades, in any order. */
export function holdingPartial(trades: readonly TradeInput[]): HoldingPartial {
  const agg = emptyAggregate();
  const parsed = trades.map(parseTrade);
  addTransactions(agg, parsed);
  addHolding(agg, parsed);
  return toPartial(agg);
}

/**
 * A customer's metrics from its holdings' partials; equal to computeMetrics over all their
 * trades whenever it is not null. Null means a figure lies within the fixed scale's error of a
 * rounding boundary: only the deals can settle it, so the caller runs computeMetrics.
 */
export function mergePartials(partials: readonly HoldingPartial[]): CustomerMetrics | null {
  const agg = emptyAggregate();
  for (const p of partials) {
    if (p.format !== PARTIAL_FORMAT) throw new Error(`Partial of format ${String(p.format)}, expected ${PARTIAL_FORMAT}`);
    mergeInto(agg, fromPartial(p));
  }
  return finish(agg);
}

function toPartial(agg: Aggregate): HoldingPartial {
  const sum = (s: FixedSum): PartialSum => ({ sum: scaledTotal(s).toString(), inexact: s.inexact });
  const deal = (d: TopDeal): PartialDeal => ({
    pnl: [d.num.toString(), d.den.toString()],
    days: [d.shareDays, d.matched],
    sell_date: d.sell_date,
    stock_code: d.stock_code,
    sell_id: d.sell_id,
  });
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
    top_wins: agg.topWins.map(deal),
    top_losses: agg.topLosses.map(deal),
  };
}

function fromPartial(p: HoldingPartial): Aggregate {
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
    topWins: p.top_wins.map(deal),
    topLosses: p.top_losses.map(deal),
  };
}
