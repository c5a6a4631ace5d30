/**
 * FIFO matching of one holding (DESIGN §6), exact: each deal's pnl comes out as a fraction of
 * 10^-4 đồng and its holding days as share-days over shares, nothing divided or rounded.
 */
import type { CreditInput, TradeInput } from "./types";
import { gcd, parseUnits, smallUnits } from "./units";

/** A transaction with its money parsed once, in 10^-4 đồng. */
export interface ParsedTrade {
  id: string;
  account_id: string;
  trade_date: string;
  /** trade_date as days since 1970-01-01, for ordering and holding days. */
  day: number;
  /** trade_date's year * 12 + month, so runs of one month are found without reading strings. */
  month: number;
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
 * Receives each deal. Its pnl, in 10^-4 đồng, comes one of two ways: when it is an integer
 * below 2^53 in magnitude (most deals of real books), as the exact double `pnl`, and then
 * pnlNum and pnlDen are 0n and 1n and mean nothing; otherwise `pnl` is NaN and the pnl is
 * pnlNum / pnlDen exactly (pnlDen > 0, not reduced; it divides first lot's shares x last lot's
 * shares x sell quantity). Holding days = shareDays / matched. A callback with plain values
 * rather than a deal object, so the common path allocates nothing per deal, not even a bigint.
 */
export type DealSink = (
  sell: ParsedTrade,
  matched: number,
  pnl: number,
  pnlNum: bigint,
  pnlDen: bigint,
  shareDays: number,
) => void;

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
    month: lastMonth,
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

/** A share credit as the FIFO walk needs it (DESIGN §6.1). */
export interface ParsedCredit {
  id: string;
  ex_date: string;
  /** ex_date as days since 1970-01-01, like ParsedTrade.day. */
  day: number;
  quantity: number;
}

export function parseCredit(c: CreditInput): ParsedCredit {
  return { id: c.id, ex_date: c.ex_date, day: dayNumber(c.ex_date), quantity: c.quantity };
}

/** Credits of one date by id (DESIGN §6.1). */
export function creditOrder(a: ParsedCredit, b: ParsedCredit): number {
  if (a.day !== b.day) return a.day - b.day;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** `credits` in creditOrder, sorted only when they are not already. */
export function sortedCredits(credits: readonly ParsedCredit[]): readonly ParsedCredit[] {
  for (let i = 1; i < credits.length; i++) {
    if (creditOrder(credits[i - 1] as ParsedCredit, credits[i] as ParsedCredit) > 0) return [...credits].sort(creditOrder);
  }
  return credits;
}

/** A buy's cost, value + fee + tax, exactly. */
export function costOf(t: ParsedTrade): bigint {
  return t.big ? t.big.total_value + t.big.fee + t.big.personal_tax : BigInt(t.total_value + t.fee + t.personal_tax);
}

/** A sell's net proceeds, value - fee - tax, exactly. */
export function netOf(t: ParsedTrade): bigint {
  return t.big ? t.big.total_value - t.big.fee - t.big.personal_tax : BigInt(t.total_value - t.fee - t.personal_tax);
}

/** True when `trades` are already in fifoOrder: one inlined pass, cheaper than sorting them. */
export function inFifoOrder(trades: readonly ParsedTrade[]): boolean {
  for (let i = 1; i < trades.length; i++) if (fifoOrder(trades[i - 1] as ParsedTrade, trades[i] as ParsedTrade) > 0) return false;
  return true;
}

/** trade_date, then buys before sells on the same date, then id. */
export function fifoOrder(a: ParsedTrade, b: ParsedTrade): number {
  if (a.day !== b.day) return a.day - b.day;
  if (a.type !== b.type) return a.type === "buy" ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The FIFO queue a holding's trades leave, as JSON keeps it: what a later call continues from
 * (matchHolding's `queue`), so trades after a point need not be matched again from the start.
 */
export interface OpenLots {
  /** Shares already taken from the first lot. */
  used: number;
  /**
   * Open lots, oldest first: [shares, cost, day]. A lot keeps its original shares and cost
   * (10^-4 đồng): a number when its money is small (the number path takes it), else a decimal
   * string (the bigint path), exactly as the lot was opened, so a continued match takes the
   * same path, and gives the same fractions, as one over the whole history. A share credit
   * that reaches a partly sold head lot leaves its remaining cost, which may be a fraction:
   * then the string is "numerator/denominator".
   */
  lots: OpenLot[];
}

/** One open lot: [shares, cost, day] (OpenLots). */
export type OpenLot = [shares: number, cost: number | string, day: number];

/** A lot's cost as OpenLots keeps it, back to numerator and denominator. */
function lotCostOf(cost: string): [bigint, bigint] {
  const slash = cost.indexOf("/");
  return slash < 0 ? [BigInt(cost), 1n] : [BigInt(cost.slice(0, slash)), BigInt(cost.slice(slash + 1))];
}

/** 2^53: every integer of smaller magnitude is a double, and so is the exact result of +, -, *
 * or % on such integers whenever that result's magnitude is below it too. Rounding to nearest
 * is monotone, so a result whose true magnitude is 2^53 or more comes out 2^53 or more: a
 * computed magnitude below 2^53 proves the operation was exact. The number path below leans
 * on this after every step and moves to bigints the moment a check fails. */
const EXACT = 2 ** 53;

/**
 * Walks one holding's trades, already in fifoOrder, passing each deal to `sink`; returns the
 * sold shares left unmatched. Open lots are parallel arrays (no object per lot) used as a
 * queue from `head`; only the head lot can be partly used (`headUsed` shares). A lot keeps its
 * original shares and cost, so every part of it is cost * take / shares exactly and the parts
 * add up to its cost.
 *
 * Each sell's pnl is whole + num / den: integer parts go to `whole`, and each part that does
 * not divide adds its remainder over its denominator to num/den (at most three: the sell's
 * proceeds, the head lot opened by an earlier sell, and the lot this sell leaves open). This
 * runs in doubles while every value is provably exact (EXACT) and in bigints from the first
 * step that is not, or for a lot or sell whose money is too large for doubles (`big`).
 *
 * With `queue`, the walk starts from the lots it holds (trades before these, matched by an
 * earlier call) and leaves the open lots in it when it ends.
 *
 * `credits` (creditOrder) are the holding's share credits: each is spread over the lots open
 * after the trades dated before its ex_date (DESIGN §6.1, spreadCredit).
 */
export function matchHolding(
  trades: readonly ParsedTrade[],
  sink: DealSink,
  queue?: OpenLots,
  credits: readonly ParsedCredit[] = [],
): number {
  const shares: number[] = [];
  /** A lot's cost when its money is small (below 2^52: three amounts below 10^15 each), else -1. */
  const cost: number[] = [];
  /** A lot's cost when it is not small, else null. */
  const bigCost: (bigint | null)[] = [];
  /** The denominator of a lot's cost when a credit left it a fraction (bigCost the numerator), else null. */
  const costDen: (bigint | null)[] = [];
  const day: number[] = [];
  let head = 0;
  let headUsed = queue?.used ?? 0;
  let unmatched = 0;
  for (const [lotShares, lotCost, lotDay] of queue?.lots ?? []) {
    shares.push(lotShares);
    cost.push(typeof lotCost === "number" ? lotCost : -1);
    const [num, den] = typeof lotCost === "number" ? [null, null] : lotCostOf(lotCost);
    bigCost.push(num);
    costDen.push(den === 1n ? null : den);
    day.push(lotDay);
  }

  /** Applies one credit to the open lots (DESIGN §6.1): largest remainders, ties to the earlier lot. */
  const credit = (c: ParsedCredit): void => {
    if (c.quantity <= 0) return;
    let open = 0n;
    for (let i = head; i < shares.length; i++) open += BigInt((shares[i] as number) - (i === head ? headUsed : 0));
    if (open === 0n) {
      shares.push(c.quantity);
      cost.push(0);
      bigCost.push(null);
      costDen.push(null);
      day.push(c.day);
      return;
    }
    const q = BigInt(c.quantity);
    const added: bigint[] = [];
    const rests: bigint[] = [];
    let left = q;
    for (let i = head; i < shares.length; i++) {
      const part = q * BigInt((shares[i] as number) - (i === head ? headUsed : 0));
      const k = part / open;
      added.push(k);
      rests.push(part - k * open);
      left -= k;
    }
    // `left` < the number of lots with a remainder: one share each to the largest, the earlier first.
    const byRest = rests
      .map((_, i) => i)
      .sort((a, b) => (rests[a] === rests[b] ? a - b : (rests[b] as bigint) > (rests[a] as bigint) ? 1 : -1));
    for (let j = 0; j < Number(left); j++) added[byRest[j] as number] = (added[byRest[j] as number] as bigint) + 1n;
    for (let j = 0; j < added.length; j++) {
      const k = Number(added[j]);
      if (k === 0) continue;
      const i = head + j;
      if (i === head && headUsed > 0) {
        // The head lot keeps what its remaining shares cost: its cost x remaining / shares.
        const lotShares = shares[i] as number;
        const remaining = lotShares - headUsed;
        let num = (bigCost[i] ?? BigInt(cost[i] as number)) * BigInt(remaining);
        let den = (costDen[i] ?? 1n) * BigInt(lotShares);
        const g = gcd(num, den);
        if (g > 1n) {
          num /= g;
          den /= g;
        }
        shares[i] = remaining + k;
        headUsed = 0;
        const small = den === 1n && num < 2n ** 52n;
        cost[i] = small ? Number(num) : -1;
        bigCost[i] = small ? null : num;
        costDen[i] = den === 1n ? null : den;
      } else shares[i] = (shares[i] as number) + k;
    }
  };
  let nextCredit = 0;

  for (const trade of trades) {
    while (nextCredit < credits.length && (credits[nextCredit] as ParsedCredit).day <= trade.day) {
      credit(credits[nextCredit++] as ParsedCredit);
    }
    // A row without shares (not in real data) takes no part: an empty lot has no unit cost,
    // and a sell of nothing has nothing to match.
    if (trade.quantity <= 0) continue;
    if (trade.type === "buy") {
      shares.push(trade.quantity);
      if (trade.big) {
        cost.push(-1);
        bigCost.push(costOf(trade));
      } else {
        cost.push(trade.total_value + trade.fee + trade.personal_tax);
        bigCost.push(null);
      }
      costDen.push(null);
      day.push(trade.day);
      continue;
    }

    let wanted = trade.quantity;
    let shareDays = 0; // shares (< 2^31) x days (< 2^22) < 2^53: an exact integer
    // The number path's state, then the bigint path's once `big` is set.
    let big = false;
    let whole = 0;
    let num = 0;
    let den = 1;
    let wholeB = 0n;
    let numB = 0n;
    let denB = 1n;
    while (wanted > 0 && head < shares.length) {
      const lotShares = shares[head] as number;
      const left = lotShares - headUsed;
      const take = Math.min(wanted, left);
      shareDays += take * (trade.day - (day[head] as number));
      const c = cost[head] as number;
      // The number path, while every value stays exact; a step it cannot take exactly is taken
      // in bigints, nothing of it applied. Costs are >= 0, so `whole` only falls here.
      if (!big && c >= 0 && addShare(whole, num, den, -c, take, lotShares)) {
        whole = sumWhole;
        num = sumNum;
        den = sumDen;
        wanted -= take;
        if (take === left) {
          head++;
          headUsed = 0;
        } else headUsed += take;
        continue;
      }
      if (!big) {
        big = true;
        wholeB = BigInt(whole);
        numB = BigInt(num);
        denB = BigInt(den);
      }
      const lotCost = bigCost[head] ?? BigInt(c);
      const lotDen = costDen[head] ?? null;
      if (take === lotShares && lotDen === null) {
        wholeB -= lotCost;
      } else {
        const part = lotCost * BigInt(take);
        const q = lotDen === null ? BigInt(lotShares) : lotDen * BigInt(lotShares);
        const int = part / q;
        wholeB -= int;
        const rest = part - int * q;
        if (rest !== 0n) {
          numB = numB * q - rest * denB;
          denB *= q;
        }
      }
      wanted -= take;
      if (take === left) {
        head++;
        headUsed = 0;
      } else headUsed += take;
    }

    const matched = trade.quantity - wanted;
    unmatched += wanted;
    if (matched === 0) continue;
    const quantity = trade.quantity;
    // |net| < 2^52: three amounts below 10^15 each.
    if (!big && !trade.big && addShare(whole, num, den, trade.total_value - trade.fee - trade.personal_tax, matched, quantity)) {
      if (sumDen === 1) sink(trade, matched, sumWhole, 0n, 1n, shareDays);
      else sink(trade, matched, NaN, BigInt(sumWhole) * BigInt(sumDen) + BigInt(sumNum), BigInt(sumDen), shareDays);
      continue;
    }
    if (!big) {
      wholeB = BigInt(whole);
      numB = BigInt(num);
      denB = BigInt(den);
    }
    const net = netOf(trade);
    if (matched === quantity) {
      wholeB += net;
    } else {
      const part = net * BigInt(matched);
      const q = BigInt(quantity);
      const int = part / q;
      wholeB += int;
      const rest = part - int * q;
      if (rest !== 0n) {
        numB = numB * q + rest * denB;
        denB *= q;
      }
    }
    sink(trade, matched, NaN, denB === 1n ? wholeB + numB : wholeB * denB + numB, denB, shareDays);
  }
  while (nextCredit < credits.length) credit(credits[nextCredit++] as ParsedCredit);
  if (queue) {
    queue.used = headUsed;
    queue.lots = [];
    for (let i = head; i < shares.length; i++) {
      const big = bigCost[i];
      const den = costDen[i];
      const lotCost = big == null ? (cost[i] as number) : den == null ? big.toString() : `${big}/${den}`;
      queue.lots.push([shares[i] as number, lotCost, day[i] as number]);
    }
  }
  return unmatched;
}

/** What addShare leaves when it succeeds: module state, so the hot loop allocates nothing. */
let sumWhole = 0;
let sumNum = 0;
let sumDen = 1;

/**
 * The number path's one step: whole + num / den + amount * part / of (0 < part <= of, |amount|
 * and |whole| below 2^53, amount truncated toward zero like the bigint path), exactly in
 * doubles. True with the sum in sumWhole + sumNum / sumDen; false, with nothing changed, when a
 * value on the way could not be exact, and the step must be taken in bigints.
 */
function addShare(whole: number, num: number, den: number, amount: number, part: number, of: number): boolean {
  sumNum = num;
  sumDen = den;
  if (part === of) {
    sumWhole = whole + amount;
    return Math.abs(sumWhole) < EXACT;
  }
  // |amount| = a * of + r, so |amount| * part / of = a * part + r * part / of;
  // a * part <= |amount| < 2^53 and r < of, so only r * part needs checking.
  const sign = amount < 0 ? -1 : 1;
  const abs = amount < 0 ? -amount : amount;
  const r = abs % of;
  const rp = r * part;
  const rest = rp % of;
  sumWhole = whole + sign * (((abs - r) / of) * part + (rp - rest) / of);
  if (!(rp < EXACT && Math.abs(sumWhole) < EXACT)) return false;
  if (rest === 0) return true;
  sumNum = num * of + sign * rest * den;
  sumDen = den * of;
  return sumDen < EXACT && rest * den < EXACT && Math.abs(num * of) < EXACT && Math.abs(sumNum) < EXACT;
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
  lastMonth = Number(date.slice(0, 4)) * 12 + m;
  return lastDay;
}

/** The last date dayNumber read, its day number and its month (ParsedTrade.month). */
let lastDate = "";
let lastDay = 0;
let lastMonth = 0;
