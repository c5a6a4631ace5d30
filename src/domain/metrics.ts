/**
 * Stats and analytics for one customer's transactions in all accounts (docs/pnl.md),
 * exact: every figure is the exact rational the rules define, rounded once at
 * output.
 */
import { addHolding, addTransactions, emptyAggregate } from "./aggregate";
import { exactAverageCost } from "./average-cost";
import { type DividendInput, type DividendSums, sumDividends } from "./dividends";
import { exactCollector } from "./exact";
import { finish } from "./finish";
import { type ParsedCredit, type ParsedTrade, parseCredit, parseTrade } from "./parse";
import type { CreditInput, CustomerMetrics, TradeInput } from "./types";

/**
 * The holdings are added into one aggregate, as their partials would merge (merge.ts). In the
 * rare case a figure lies within the fixed scale's error of a rounding boundary, the book is
 * matched again collecting every deal, and those figures are summed exactly (exact.ts).
 * `credits` are the customer's share credits (docs/corporate-actions.md),
 * in any order; a credit to a holding with no trades changes no
 * figure. `dividends` are its cash dividends, or their sums.
 */
export function computeMetrics(
  trades: readonly TradeInput[],
  credits: readonly CreditInput[] = [],
  dividends: readonly DividendInput[] | DividendSums = [],
): CustomerMetrics {
  const received = Array.isArray(dividends) ? sumDividends(dividends as readonly DividendInput[]) : (dividends as DividendSums);
  const parsed = trades.map(parseTrade);
  const agg = emptyAggregate();
  addTransactions(agg, parsed);
  const holdings = groupByHolding(parsed);
  const creditsOf = creditsByHolding(credits);
  const holdingCredits = (holding: ParsedTrade[]) => {
    const first = holding[0] as ParsedTrade;
    return creditsOf.get(first.account_id)?.get(first.stock_code) ?? [];
  };
  for (const holding of holdings) addHolding(agg, holding, undefined, undefined, { credits: holdingCredits(holding) });
  const fast = finish(agg, undefined, received);
  if (fast) return fast;

  const again = emptyAggregate();
  addTransactions(again, parsed);
  const { sink, addAverageCost, sums } = exactCollector();
  for (const holding of holdings) {
    const credits = holdingCredits(holding);
    addHolding(again, holding, sink, undefined, { credits });
    addAverageCost(exactAverageCost(holding, credits));
  }
  return finish(again, sums, received) as CustomerMetrics;
}

/** Credits by account, then stock code. */
function creditsByHolding(credits: readonly CreditInput[]): Map<string, Map<string, ParsedCredit[]>> {
  const byAccount = new Map<string, Map<string, ParsedCredit[]>>();
  for (const c of credits) {
    let byStock = byAccount.get(c.account_id);
    if (!byStock) byAccount.set(c.account_id, (byStock = new Map()));
    const own = byStock.get(c.stock_code);
    if (own) own.push(parseCredit(c));
    else byStock.set(c.stock_code, [parseCredit(c)]);
  }
  return byAccount;
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
