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
import { SCALE } from "./fixed";
import type { Fraction } from "./exact";
import { costOf, creditOrder, fifoOrder, netOf, parseCredit, parseTrade, type ParsedCredit, type ParsedTrade } from "./parse";
import { ZERO, add, fraction, integer, mul } from "./rational";
import type { CreditInput, TradeInput } from "./types";

/**
 * Where a position stands after a date: its shares and their average cost C in 10^-4 đồng, within
 * `inexact` units of 10^-4 đồng / SCALE (fixed.ts) of the exact C (strictly; exact when 0).
 *
 * C is exact while its denominator stays small, as it does for a position sold a few times. Each
 * partial sell leaves C * (Q - m) / Q, whose exact denominator multiplies by Q / gcd at every
 * sell, so a position trimmed tens of thousands of times would carry (and store at every step) a
 * fraction of hundreds of thousands of digits, and its walk would cost the square of its trades
 * (average-cost.ts keeps its C in the fixed scale for the same reason). Past MAX_DENOMINATOR, C is
 * truncated to the fixed scale and counted inexact. Only an unpriced position's value reads C;
 * a read that meets an inexact one asks for the exact C of that position (exactCosts) instead,
 * one more round trip, so the bound is set where real books never reach it.
 */
export interface PositionState {
  shares: number;
  cost: Fraction;
  inexact: number;
}

/** A denominator past this (10^40) brings C to the fixed scale (whose denominator is ~1.4 × 10^30). */
const MAX_DENOMINATOR = 10n ** 40n;

export interface PositionStep extends PositionState {
  date: string;
  /** True when a trade is dated here (not only a share credit): the customer's last trade date bounds its points. */
  traded: boolean;
  /** Buys' value + fee + tax, in 10^-4 đồng. */
  invested: bigint;
  /** Sells' value - fee - tax, times matched / quantity, in 10^-4 đồng. */
  withdrawn: Fraction;
}

export const EMPTY_POSITION: PositionState = { shares: 0, cost: ZERO, inexact: 0 };

/** C and how inexact it is, brought to the fixed scale (truncated) when its denominator passed MAX_DENOMINATOR. */
export function bounded(cost: Fraction, inexact: number): { cost: Fraction; inexact: number } {
  if (cost.den <= MAX_DENOMINATOR) return { cost, inexact };
  const scaled = cost.num * SCALE;
  const truncated = scaled / cost.den;
  return { cost: fraction(truncated, SCALE), inexact: inexact + (truncated * cost.den === scaled ? 0 : 1) };
}

/**
 * The steps of one holding's ledger events after `start` (all of them from an empty position
 * when `start` is null), one per date that has an event, oldest first.
 */
export const positionSteps = (
  start: PositionState | null,
  trades: readonly TradeInput[],
  credits: readonly CreditInput[],
): PositionStep[] => walkSteps(start, trades, credits, bounded);

/**
 * The exact C of one holding's whole ledger after each of `dates`, as a fraction of 10^-4 đồng:
 * the walk of positionSteps with C never bounded, for the rare read that values an unpriced
 * position whose stored C is inexact. Its cost can grow with the square of the holding's sells.
 */
export function exactCosts(
  trades: readonly TradeInput[],
  credits: readonly CreditInput[],
  dates: readonly string[],
): Map<string, Fraction> {
  const steps = walkSteps(null, trades, credits, (cost, inexact) => ({ cost, inexact }));
  // Each date's C is the one after the latest event on or before it.
  return new Map(dates.map((d) => [d, steps.findLast((step) => step.date <= d)?.cost ?? ZERO]));
}

/**
 * The walk: by date, each date's credits first, then its trades in FIFO order; `bound` decides
 * what C a partial sell leaves.
 */
function walkSteps(
  start: PositionState | null,
  trades: readonly TradeInput[],
  credits: readonly CreditInput[],
  bound: typeof bounded,
): PositionStep[] {
  const byDate = new Map<string, { trades: ParsedTrade[]; credits: ParsedCredit[] }>();
  const at = (date: string) => {
    let events = byDate.get(date);
    if (!events) byDate.set(date, (events = { trades: [], credits: [] }));
    return events;
  };
  for (const t of trades) at(t.trade_date).trades.push(parseTrade(t));
  for (const c of credits) at(c.ex_date).credits.push(parseCredit(c));

  let { shares, cost, inexact } = start ?? EMPTY_POSITION;
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
      if (matched === shares) [cost, inexact] = [ZERO, 0];
      else ({ cost, inexact } = bound(mul(cost, fraction(BigInt(shares - matched), BigInt(shares))), inexact));
      shares -= matched;
    }
    steps.push({ date, traded: events.trades.length > 0, shares, cost, inexact, invested, withdrawn });
  }
  return steps;
}
