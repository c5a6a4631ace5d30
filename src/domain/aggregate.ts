/**
 * What the metrics need from a set of trades, in a form that adds: exact integer sums, counts,
 * fixed-scale sums with their count of inexact terms (fixed-sum.ts), and the five best and
 * worst deals with exact pnl (top.ts). The aggregate of a customer is the sum of its holdings'
 * aggregates, so one holding's trades can change without the others being read again. This
 * file gathers a holding's walks (fifo.ts, average-cost.ts) and its transactions into one
 * aggregate, and adds aggregates together; how an aggregate is stored and merged as a partial
 * is partial.ts and merge.ts.
 */
import { type AverageCost, noAverageCost, walkAverageCost } from "./average-cost";
import { type DealSink, matchHolding } from "./fifo";
import { type FixedSum, addFraction, addInteger, addScaled, addSum, fixedSum } from "./fixed-sum";
import type { OpenLots } from "./lots";
import { type ParsedCredit, type ParsedTrade, fifoOrder, inFifoOrder, sortedCredits } from "./parse";
import { type TopDeal, offerTop } from "./top";

/** What an aggregate and a stored partial both count. */
export interface Counts {
  transactions: number;
  deals: number;
  wins: number;
  losses: number;
}

export interface Aggregate extends Counts {
  unmatched: number;
  buyValue: bigint;
  sellValue: bigint;
  buyFee: bigint;
  sellFee: bigint;
  tax: bigint;
  from: string | null;
  to: string | null;
  monthTrades: Map<string, number>;
  monthPnl: Map<string, FixedSum>;
  winPnl: FixedSum;
  lossPnl: FixedSum;
  winDays: FixedSum;
  lossDays: FixedSum;
  /** Realized P&L by average cost (average-cost.ts). */
  averagePnl: FixedSum;
  /** One holding's shares and cost by average cost, where a continued walk starts; null in a merge of holdings. */
  average: AverageCost | null;
  topWins: TopDeal[];
  topLosses: TopDeal[];
  /** The month of the last deal (ParsedTrade.month) and its entry in monthPnl, so a run of one month looks up once. */
  lastMonth: number;
  lastMonthSum: FixedSum | null;
}

export function emptyAggregate(): Aggregate {
  return {
    transactions: 0,
    deals: 0,
    wins: 0,
    losses: 0,
    unmatched: 0,
    buyValue: 0n,
    sellValue: 0n,
    buyFee: 0n,
    sellFee: 0n,
    tax: 0n,
    from: null,
    to: null,
    monthTrades: new Map(),
    monthPnl: new Map(),
    winPnl: fixedSum(),
    lossPnl: fixedSum(),
    winDays: fixedSum(),
    lossDays: fixedSum(),
    averagePnl: fixedSum(),
    average: null,
    topWins: [],
    topLosses: [],
    lastMonth: -1,
    lastMonthSum: null,
  };
}

/** What else a holding's walk may take (addHolding). */
export interface HoldingExtras {
  /** The holding's share credits, any order. */
  credits?: readonly ParsedCredit[];
  /** Where its average cost stands before these trades (changed in place); a fresh one when absent. */
  average?: AverageCost;
}

/**
 * Adds the deals of one holding's trades (any order; sorted here) to `agg`. Their transaction
 * sums are added apart (addTransactions), in input order, which reads memory in sequence. With
 * `queue`, matching continues from its open lots and leaves the new ones in it (fifo.ts). Share
 * credits take their place in the FIFO walk and in the average cost's (docs/corporate-actions.md).
 */
export function addHolding(
  agg: Aggregate,
  holding: ParsedTrade[],
  onDeal?: DealSink,
  queue?: OpenLots,
  extras: HoldingExtras = {},
): void {
  // Trades mostly arrive in date order already; checking is a plain pass, sorting is not.
  if (!inFifoOrder(holding)) holding.sort(fifoOrder);
  const credits = sortedCredits(extras.credits ?? []);
  const average = extras.average ?? noAverageCost();
  // The walk's figure is its parts plus the cost at its end less the cost at its start
  // (average-cost.ts). A walk that continues a stored partial starts from the cost that partial
  // ended with and added: that term, and its error bound, are taken back out exactly, so a
  // continued sum is the very sum a walk over the whole history makes.
  addScaled(agg.averagePnl, -average.cost, -average.inexact);
  walkAverageCost(holding, credits, average, (num, den) => addFraction(agg.averagePnl, num, den));
  addScaled(agg.averagePnl, average.cost, average.inexact);
  agg.unmatched += matchHolding(
    holding,
    onDeal
      ? (sell, matched, pnl, num, den, shareDays) => {
          addDeal(agg, sell, matched, pnl, num, den, shareDays);
          onDeal(sell, matched, pnl, num, den, shareDays);
        }
      : (sell, matched, pnl, num, den, shareDays) => addDeal(agg, sell, matched, pnl, num, den, shareDays),
    queue,
    credits,
  );
}

/** Sums of doubles stay exact below 2^53: flush to the bigint before a sum could pass it. */
const FLUSH = 2 ** 52;

/** Adds the counts and sums of `trades` (any order, any holdings) to `agg`. */
export function addTransactions(agg: Aggregate, trades: readonly ParsedTrade[]): void {
  // The earliest and latest trade by day number: comparing numbers, not date strings.
  let fromDay = Infinity;
  let toDay = -Infinity;
  let from = "";
  let to = "";
  // Sorted trades come in runs of one month: count a run, then add it to the map once.
  let month = -1; // ParsedTrade.month of the run
  let key = "";
  let run = 0;
  // Small money (below 2^51 each) adds up in doubles, exactly, and moves to the bigints in bulk.
  let buyValue = 0;
  let sellValue = 0;
  let buyFee = 0;
  let sellFee = 0;
  let tax = 0;
  for (const t of trades) {
    if (t.big) {
      if (t.type === "buy") {
        agg.buyValue += t.big.total_value;
        agg.buyFee += t.big.fee;
      } else {
        agg.sellValue += t.big.total_value;
        agg.sellFee += t.big.fee;
      }
      agg.tax += t.big.personal_tax;
    } else {
      if (t.type === "buy") {
        buyValue += t.total_value;
        buyFee += t.fee;
      } else {
        sellValue += t.total_value;
        sellFee += t.fee;
      }
      tax += t.personal_tax;
      if (buyValue >= FLUSH || buyFee >= FLUSH || sellValue >= FLUSH || sellFee >= FLUSH || tax >= FLUSH) {
        agg.buyValue += BigInt(buyValue);
        agg.buyFee += BigInt(buyFee);
        agg.sellValue += BigInt(sellValue);
        agg.sellFee += BigInt(sellFee);
        agg.tax += BigInt(tax);
        buyValue = buyFee = sellValue = sellFee = tax = 0;
      }
    }
    const date = t.trade_date;
    if (t.day < fromDay) {
      fromDay = t.day;
      from = date;
    }
    if (t.day > toDay) {
      toDay = t.day;
      to = date;
    }
    if (t.month === month) {
      run++;
    } else {
      if (run > 0) agg.monthTrades.set(key, (agg.monthTrades.get(key) ?? 0) + run);
      month = t.month;
      key = date.slice(0, 7);
      run = 1;
    }
  }
  if (run > 0) agg.monthTrades.set(key, (agg.monthTrades.get(key) ?? 0) + run);
  agg.buyValue += BigInt(buyValue);
  agg.buyFee += BigInt(buyFee);
  agg.sellValue += BigInt(sellValue);
  agg.sellFee += BigInt(sellFee);
  agg.tax += BigInt(tax);
  agg.transactions += trades.length;
  if (trades.length === 0) return;
  if (agg.from === null || from < agg.from) agg.from = from;
  if (agg.to === null || to > agg.to) agg.to = to;
}

/** Reused for the candidate of each deal, so a deal that enters no top list allocates nothing. */
const candidate: TopDeal = { num: 0n, den: 1n, small: NaN, shareDays: 0, matched: 0, sell_date: "", stock_code: "", sell_id: "" };

/** One deal, its pnl as DealSink gives it (fifo.ts): the exact double `pnl`, or num/den when pnl is NaN. */
function addDeal(
  agg: Aggregate,
  sell: ParsedTrade,
  matched: number,
  pnl: number,
  num: bigint,
  den: bigint,
  shareDays: number,
): void {
  agg.deals++;
  // A holding's sells come in date order: look the month's sum up once per run of a month.
  let monthSum = agg.lastMonthSum;
  if (monthSum === null || sell.month !== agg.lastMonth) {
    agg.lastMonth = sell.month;
    const key = sell.trade_date.slice(0, 7);
    monthSum = agg.monthPnl.get(key) ?? null;
    if (!monthSum) agg.monthPnl.set(key, (monthSum = fixedSum()));
    agg.lastMonthSum = monthSum;
  }
  const integer = !Number.isNaN(pnl);
  if (integer) addInteger(monthSum, pnl);
  else addFraction(monthSum, num, den);
  if (integer ? pnl === 0 : num === 0n) return; // break-even: only total_deals and its month

  const win = integer ? pnl > 0 : num > 0n;
  if (win) agg.wins++;
  else agg.losses++;
  if (integer) addInteger(win ? agg.winPnl : agg.lossPnl, pnl);
  else addFraction(win ? agg.winPnl : agg.lossPnl, num, den);
  const rest = shareDays % matched;
  const days = win ? agg.winDays : agg.lossDays;
  addInteger(days, (shareDays - rest) / matched);
  if (rest !== 0) addFraction(days, BigInt(rest), BigInt(matched));

  // num/den of an integer pnl are made only if the deal enters a top list (offerTop).
  candidate.small = integer ? pnl : NaN;
  candidate.num = num;
  candidate.den = den;
  candidate.shareDays = shareDays;
  candidate.matched = matched;
  candidate.sell_date = sell.trade_date;
  candidate.stock_code = sell.stock_code;
  candidate.sell_id = sell.id;
  offerTop(win ? agg.topWins : agg.topLosses, candidate, win);
}

/** Adds `b` into `a`. */
export function mergeInto(a: Aggregate, b: Aggregate): void {
  a.transactions += b.transactions;
  a.deals += b.deals;
  a.wins += b.wins;
  a.losses += b.losses;
  a.unmatched += b.unmatched;
  a.buyValue += b.buyValue;
  a.sellValue += b.sellValue;
  a.buyFee += b.buyFee;
  a.sellFee += b.sellFee;
  a.tax += b.tax;
  if (b.from !== null && (a.from === null || b.from < a.from)) a.from = b.from;
  if (b.to !== null && (a.to === null || b.to > a.to)) a.to = b.to;
  for (const [month, n] of b.monthTrades) a.monthTrades.set(month, (a.monthTrades.get(month) ?? 0) + n);
  for (const [month, s] of b.monthPnl) {
    const mine = a.monthPnl.get(month);
    if (mine) addSum(mine, s);
    else a.monthPnl.set(month, { ...s });
  }
  for (const key of ["winPnl", "lossPnl", "winDays", "lossDays", "averagePnl"] as const) addSum(a[key], b[key]);
  for (const deal of b.topWins) offerTop(a.topWins, deal, true);
  for (const deal of b.topLosses) offerTop(a.topLosses, deal, false);
}
