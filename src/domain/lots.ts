/**
 * A holding's open lots: the FIFO queue as the walk keeps it (parallel arrays, no object per
 * lot), as JSON stores it between calls (OpenLots), and how a share credit spreads over it
 * (spreadCredit). Apart from the matching (fifo.ts) because a credit changes lots without
 * matching any sell: its rule (docs/corporate-actions.md)
 * reads and rewrites every open lot in bigints, off the hot path of the sells.
 */
import type { ParsedCredit } from "./parse";
import { gcd } from "./units";

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

/**
 * The walk's lots, parallel arrays used as a queue from a head index the walk keeps. A lot
 * keeps its original shares and cost, so every part of it is cost * take / shares exactly.
 */
export interface LotQueue {
  shares: number[];
  /** A lot's cost when its money is small (below 2^52: three amounts below 10^15 each), else -1. */
  cost: number[];
  /** A lot's cost when it is not small, else null. */
  bigCost: (bigint | null)[];
  /** The denominator of a lot's cost when a credit left it a fraction (bigCost the numerator), else null. */
  costDen: (bigint | null)[];
  day: number[];
}

/** The lots `queue` holds (none without it), head first, as the walk keeps them. */
export function loadLots(queue: OpenLots | undefined): LotQueue {
  const lots: LotQueue = { shares: [], cost: [], bigCost: [], costDen: [], day: [] };
  for (const [lotShares, lotCost, lotDay] of queue?.lots ?? []) {
    lots.shares.push(lotShares);
    lots.cost.push(typeof lotCost === "number" ? lotCost : -1);
    const [num, den] = typeof lotCost === "number" ? [null, null] : lotCostOf(lotCost);
    lots.bigCost.push(num);
    lots.costDen.push(den === 1n ? null : den);
    lots.day.push(lotDay);
  }
  return lots;
}

/** Leaves the lots from `head` on in `queue`, `headUsed` shares of the first taken. */
export function storeLots(lots: LotQueue, head: number, headUsed: number, queue: OpenLots): void {
  queue.used = headUsed;
  queue.lots = [];
  for (let i = head; i < lots.shares.length; i++) {
    const big = lots.bigCost[i];
    const den = lots.costDen[i];
    const lotCost = big == null ? (lots.cost[i] as number) : den == null ? big.toString() : `${big}/${den}`;
    queue.lots.push([lots.shares[i] as number, lotCost, lots.day[i] as number]);
  }
}

/** A lot's cost as OpenLots keeps it, back to numerator and denominator. */
function lotCostOf(cost: string): [bigint, bigint] {
  const slash = cost.indexOf("/");
  return slash < 0 ? [BigInt(cost), 1n] : [BigInt(cost.slice(0, slash)), BigInt(cost.slice(slash + 1))];
}

/**
 * Spreads one credit over the lots open from `head` (`headUsed` shares of it taken) in
 * proportion to their remaining shares: largest remainders, ties to the earlier lot
 * (docs/corporate-actions.md). With no lot open, the credit
 * opens a zero-cost lot dated its ex_date. Returns the head lot's shares taken afterwards: 0
 * when the credit reached a partly sold head lot, which then keeps only what its remaining
 * shares cost.
 */
export function spreadCredit(lots: LotQueue, head: number, headUsed: number, c: ParsedCredit): number {
  if (c.quantity <= 0) return headUsed;
  const { shares, cost, bigCost, costDen, day } = lots;
  let open = 0n;
  for (let i = head; i < shares.length; i++) open += BigInt((shares[i] as number) - (i === head ? headUsed : 0));
  if (open === 0n) {
    shares.push(c.quantity);
    cost.push(0);
    bigCost.push(null);
    costDen.push(null);
    day.push(c.day);
    return headUsed;
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
  let used = headUsed;
  for (let j = 0; j < added.length; j++) {
    const k = Number(added[j]);
    if (k === 0) continue;
    const i = head + j;
    if (i === head && used > 0) {
      // The head lot keeps what its remaining shares cost: its cost x remaining / shares.
      const lotShares = shares[i] as number;
      const remaining = lotShares - used;
      let num = (bigCost[i] ?? BigInt(cost[i] as number)) * BigInt(remaining);
      let den = (costDen[i] ?? 1n) * BigInt(lotShares);
      const g = gcd(num, den);
      if (g > 1n) {
        num /= g;
        den /= g;
      }
      shares[i] = remaining + k;
      used = 0;
      const small = den === 1n && num < 2n ** 52n;
      cost[i] = small ? Number(num) : -1;
      bigCost[i] = small ? null : num;
      costDen[i] = den === 1n ? null : den;
    } else shares[i] = (shares[i] as number) + k;
  }
  return used;
}
