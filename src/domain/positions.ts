/**
 * A position's steps: how one holding (account, stock code) stood at the end of each date of its
 * ledger, what the performance figures (performance.ts) value with the closes. The walk is the
 * one of the P&L (parse.ts): by date, share credits before the trades of their ex_date, buys
 * before sells, then id; a sell takes only the shares the position holds. Each step keeps the
 * shares (the FIFO lots' shares, which are also the average-cost walk's), C (average-cost.ts:
 * buys add their cost, credits add shares at no cost, a sell of m of Q shares takes C * m / Q),
 * the money put in that date (buys' value + fee + tax) and the money taken out (each sell's
 * value - fee - tax times the share of it that matched). Cash dividends are not steps: they move
 * no share and are read with the ledger.
 *
 * The sync stores the steps whenever a holding's ledger changes (src/sync/holdings.ts), so a
 * read values points, never walks trades.
 */
import type { Fraction } from "./exact";
import { costOf, creditOrder, fifoOrder, netOf, parseCredit, parseTrade, type ParsedCredit, type ParsedTrade } from "./parse";
import { ZERO, add, fraction, integer, mul } from "./rational";
import type { CreditInput, TradeInput } from "./types";

/** Where a position stands after a date: its shares and their average cost C, in 10^-4 đồng. */
export interface PositionState {
  shares: number;
  cost: Fraction;
}

export interface PositionStep extends PositionState {
  date: string;
  /** True when a trade is dated here (not only a share credit): the customer's last trade date bounds its points. */
  traded: boolean;
  /** Buys' value + fee + tax, in 10^-4 đồng. */
  invested: bigint;
  /** Sells' value - fee - tax, times matched / quantity, in 10^-4 đồng. */
  withdrawn: Fraction;
}

export const EMPTY_POSITION: PositionState = { shares: 0, cost: ZERO };

/**
 * The steps of one holding's ledger events after `start` (all of them from an empty position
 * when `start` is null), one per date that has an event, oldest first.
 */
export function positionSteps(
  start: PositionState | null,
  trades: readonly TradeInput[],
  credits: readonly CreditInput[],
): PositionStep[] {
  const byDate = new Map<string, { trades: ParsedTrade[]; credits: ParsedCredit[] }>();
  const at = (date: string) => {
    let events = byDate.get(date);
    if (!events) byDate.set(date, (events = { trades: [], credits: [] }));
    return events;
  };
  for (const t of trades) at(t.trade_date).trades.push(parseTrade(t));
  for (const c of credits) at(c.ex_date).credits.push(parseCredit(c));

  let { shares, cost } = start ?? EMPTY_POSITION;
  const steps: PositionStep[] = [];
  for (const date of [...byDate.keys()].sort()) {
    const events = byDate.get(date)!;
    let invested = 0n;
    let withdrawn = ZERO;
    for (const credit of events.credits.sort(creditOrder)) shares += credit.quantity;
    for (const trade of events.trades.sort(fifoOrder)) {
      if (trade.type === "buy") {
        shares += trade.quantity;
        cost = add(cost, integer(costOf(trade)));
        invested += costOf(trade);
        continue;
      }
      const matched = Math.min(trade.quantity, shares);
      if (matched === 0) continue;
      withdrawn = add(withdrawn, fraction(netOf(trade) * BigInt(matched), BigInt(trade.quantity)));
      cost = matched === shares ? ZERO : mul(cost, fraction(BigInt(shares - matched), BigInt(shares)));
      shares -= matched;
    }
    steps.push({ date, traded: events.trades.length > 0, shares, cost, invested, withdrawn });
  }
  return steps;
}
