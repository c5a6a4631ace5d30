/**
 * FIFO matching of one holding (DESIGN §6), exact: each deal's pnl comes out as a fraction of
 * 10^-4 đồng and its holding days as share-days over shares, nothing divided or rounded.
 */
import type { TradeInput } from "./types";
import { parseUnits, smallUnits } from "./units";

/** A transaction with its money parsed once, in 10^-4 đồng. */
export interface ParsedTrade {
  id: string;
  account_id: string;
  trade_date: string;
  /** trade_date as days since 1970-01-01, for ordering and holding days. */
  day: number;
  stock_code: string;
  type: "buy" | "sell";
  quantity: number;
  /**
   * Money in 10^-4 đồng. Doubles when all three are small (units.ts smallUnits: exact, and so
   * are their sums), which skips most bigint work; otherwise `big` holds them and these are 0.
   */
  total_value: number;
  fee: number;
  personal_tax: number;
  big: { total_value: bigint; fee: bigint; personal_tax: bigint } | null;
}

/**
 * Receives each deal. pnl = pnlNum / pnlDen exactly (pnlDen > 0, not reduced; it divides
 * first lot's shares x last lot's shares x sell quantity); holding days = shareDays / matched.
 * A callback rather than a deal object, so the fast path allocates nothing per deal.
 */
export type DealSink = (sell: ParsedTrade, matched: number, pnlNum: bigint, pnlDen: bigint, shareDays: number) => void;

export function parseTrade(t: TradeInput): ParsedTrade {
  const value = smallUnits(t.total_value);
  const fee = smallUnits(t.fee);
  const tax = smallUnits(t.personal_tax);
  const small = value >= 0 && fee >= 0 && tax >= 0;
  return {
    id: t.id,
    account_id: t.account_id,
    trade_date: t.trade_date,
    day: dayNumber(t.trade_date),
    stock_code: t.stock_code,
    type: t.type,
    quantity: t.quantity,
    total_value: small ? value : 0,
    fee: small ? fee : 0,
    personal_tax: small ? tax : 0,
    big: small
      ? null
      : { total_value: parseUnits(t.total_value), fee: parseUnits(t.fee), personal_tax: parseUnits(t.personal_tax) },
  };
}

/** A buy's cost, value + fee + tax, exactly. */
function costOf(t: ParsedTrade): bigint {
  return t.big ? t.big.total_value + t.big.fee + t.big.personal_tax : BigInt(t.total_value + t.fee + t.personal_tax);
}

/** A sell's net proceeds, value - fee - tax, exactly. */
function netOf(t: ParsedTrade): bigint {
  return t.big ? t.big.total_value - t.big.fee - t.big.personal_tax : BigInt(t.total_value - t.fee - t.personal_tax);
}

/** trade_date, then buys before sells on the same date, then id. */
export function fifoOrder(a: ParsedTrade, b: ParsedTrade): number {
  if (a.day !== b.day) return a.day - b.day;
  if (a.type !== b.type) return a.type === "buy" ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Walks one holding's trades, already in fifoOrder, passing each deal to `sink`; returns the
 * sold shares left unmatched. Open lots are parallel arrays (no object per lot) used as a
 * queue from `head`. A lot keeps its original shares and cost and how many shares are used,
 * so every part of it is cost * take / shares exactly and the parts add up to its cost.
 */
export function matchHolding(trades: readonly ParsedTrade[], sink: DealSink): number {
  const shares: number[] = [];
  const cost: bigint[] = [];
  const used: number[] = [];
  const day: number[] = [];
  let head = 0;
  let unmatched = 0;
  for (const trade of trades) {
    // A row without shares (not in real data) takes no part: an empty lot has no unit cost,
    // and a sell of nothing has nothing to match.
    if (trade.quantity <= 0) continue;
    if (trade.type === "buy") {
      shares.push(trade.quantity);
      cost.push(costOf(trade));
      used.push(0);
      day.push(trade.day);
      continue;
    }

    let wanted = trade.quantity;
    // pnl = whole + fraction: `whole` collects the integer parts; each inexact part adds its
    // remainder over its denominator to num/den (at most three: the sell's proceeds, a lot
    // opened by an earlier sell, and the lot this sell leaves open).
    let whole = 0n;
    let num = 0n;
    let den = 1n;
    let shareDays = 0; // shares (< 2^31) x days (< 2^22) < 2^53: an exact integer
    while (wanted > 0 && head < shares.length) {
      const lotShares = shares[head] as number;
      const left = lotShares - (used[head] as number);
      const take = wanted < left ? wanted : left;
      shareDays += take * (trade.day - (day[head] as number));
      if (take === lotShares) {
        whole -= cost[head] as bigint;
      } else {
        const part = (cost[head] as bigint) * BigInt(take);
        const q = BigInt(lotShares);
        const int = part / q;
        whole -= int;
        const rest = part - int * q;
        if (rest !== 0n) {
          num = num * q - rest * den;
          den *= q;
        }
      }
      wanted -= take;
      if (take === left) head++;
      else used[head] = (used[head] as number) + take;
    }

    const matched = trade.quantity - wanted;
    unmatched += wanted;
    if (matched === 0) continue;
    const net = netOf(trade);
    if (matched === trade.quantity) {
      whole += net;
    } else {
      const part = net * BigInt(matched);
      const q = BigInt(trade.quantity);
      const int = part / q;
      whole += int;
      const rest = part - int * q;
      if (rest !== 0n) {
        num = num * q + rest * den;
        den *= q;
      }
    }
    sink(trade, matched, den === 1n ? whole + num : whole * den + num, den, shareDays);
  }
  return unmatched;
}

/**
 * Days since 1970-01-01 for a YYYY-MM-DD date, by whole-number calendar arithmetic (H. Hinnant's
 * days_from_civil): valid for every year 0000-9999, where Date.UTC maps years below 100 to 19xx.
 */
function dayNumber(date: string): number {
  if (date === lastDate) return lastDay; // trades arrive in runs of one date
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  const y = Number(date.slice(0, 4)) - (m <= 2 ? 1 : 0);
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  lastDate = date;
  lastDay = era * 146_097 + dayOfEra - 719_468;
  return lastDay;
}

let lastDate = "";
let lastDay = 0;
