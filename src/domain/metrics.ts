/**
 * Stats and analytics for one customer's transactions in all accounts (DESIGN §6), exact:
 * every figure is the exact rational the rules define, rounded once at output.
 */
import { addHolding, addTransactions, emptyAggregate } from "./aggregate";
import { exactCollector } from "./exact";
import { type ParsedTrade, parseTrade } from "./fifo";
import { finish } from "./finish";
import type { CustomerMetrics, TradeInput } from "./types";

/**
 * The holdings are added into one aggregate, as their partials would merge (partial.ts). In the
 * rare case a figure lies within the fixed scale's error of a rounding boundary, the book is
 * matched again collecting every deal, and those figures are summed exactly (exact.ts).
 */
export function computeMetrics(trades: readonly TradeInput[]): CustomerMetrics {
  const parsed = trades.map(parseTrade);
  const agg = emptyAggregate();
  addTransactions(agg, parsed);
  const holdings = groupByHolding(parsed);
  for (const holding of holdings) addHolding(agg, holding);
  const fast = finish(agg);
  if (fast) return fast;

  const again = emptyAggregate();
  addTransactions(again, parsed);
  const { sink, sums } = exactCollector();
  for (const holding of holdings) addHolding(again, holding, sink);
  return finish(again, sums) as CustomerMetrics;
}

/** Nested maps rather than a joined string key: no string is built per trade. */
export function groupByHolding(trades: readonly ParsedTrade[]): ParsedTrade[][] {
  const byAccount = new Map<string, Map<string, ParsedTrade[]>>();
  for (const trade of trades) {
    let byStock = byAccount.get(trade.account_id);
    if (!byStock) byAccount.set(trade.account_id, (byStock = new Map()));
    const holding = byStock.get(trade.stock_code);
    if (holding) holding.push(trade);
    else byStock.set(trade.stock_code, [trade]);
  }
  return [...byAccount.values()].flatMap((byStock) => [...byStock.values()]);
}
