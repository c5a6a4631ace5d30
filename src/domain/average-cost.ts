/**
 * Realized P&L by weighted average cost (docs/corporate-actions.md),
 * the figure Vietnamese brokers print beside (or instead of) FIFO: per
 * holding, in the FIFO walk's order, shares Q and cost C. A buy adds its shares and its cost
 * with fee and tax; a share credit adds shares and no cost; a sell of q shares matches
 * m = min(q, Q) and realizes net * m / q - C * m / Q.
 *
 * C is kept in the fixed scale (fixed.ts), not as an exact fraction: each partial sell leaves
 * C * (Q - m) / Q, whose exact denominator multiplies by Q / gcd at every sell, so a holding
 * never sold out (a long-lived position trimmed 50,000 times) would carry a fraction of
 * hundreds of thousands of digits. Truncated instead, the cost moves by less than one unit per
 * inexact sell and an earlier error only shrinks (times (Q - m) / Q), so `inexact` counts the
 * bound the rounding proof needs; the figure is summed exactly (exactAverageCost) only when
 * that bound leaves it undecided (exact.ts).
 */
import { type Fraction, sumFractions } from "./exact";
import { SCALE } from "./fixed";
import { costOf, fifoOrder, inFifoOrder, netOf, type ParsedCredit, type ParsedTrade, sortedCredits } from "./parse";
import { gcd } from "./units";

/**
 * Where a holding's average cost stands: its shares, and their cost in units of 10^-4 đồng /
 * SCALE, within `inexact` units of the exact cost (strictly; exact when 0).
 */
export interface AverageCost {
  shares: number;
  cost: bigint;
  inexact: number;
}

/** As a stored partial keeps it: [shares, cost as a decimal string, inexact]. */
export type StoredAverageCost = [shares: number, cost: string, inexact: number];

export const noAverageCost = (): AverageCost => ({ shares: 0, cost: 0n, inexact: 0 });

export const storeAverageCost = (a: AverageCost): StoredAverageCost => [a.shares, a.cost.toString(), a.inexact];

export const loadAverageCost = ([shares, cost, inexact]: StoredAverageCost): AverageCost => ({
  shares,
  cost: BigInt(cost),
  inexact,
});

/**
 * Receives the parts of the walk's realized figure, num / den in 10^-4 đồng (den > 0, not
 * reduced). With the cost at the end of the walk less the cost at its start, which the walk
 * leaves to its caller (addHolding, src/domain/aggregate.ts), they sum to the figure.
 */
export type AverageSink = (num: bigint, den: bigint) => void;

/**
 * Walks one holding's trades (fifoOrder) and credits (creditOrder) from `state`, passing the
 * parts of its realized figure to `sink`, and leaves the holding's shares and cost in `state`.
 *
 * The sells' figures (net * m / q - C * m / Q each) are passed in another form with the same
 * sum: the costs out add up to the cost at the start, plus the buys' costs, less the cost at the
 * end, so the walk passes each sell's net * m / q and each buy's cost negated, and the caller
 * adds the cost at the end less the cost at the start. All but those two are whole 10^-4 đồng
 * when a sell matches all its shares, and a holding sold out ends at a cost of exactly 0, so it
 * sums exactly in the fixed scale however its average cost divided: the stored total_return
 * part (total-return.ts) cannot be decided from an inexact sum that lands on a whole 10^-4.
 */
export function walkAverageCost(
  trades: readonly ParsedTrade[],
  credits: readonly ParsedCredit[],
  state: AverageCost,
  sink: AverageSink,
): void {
  inAverageOrder(
    trades,
    credits,
    (c) => {
      state.shares += c.quantity;
    },
    (t) => {
      if (t.type === "buy") {
        const cost = costOf(t);
        state.cost += cost * SCALE;
        state.shares += t.quantity;
        sink(-cost, 1n);
        return;
      }
      const m = Math.min(t.quantity, state.shares);
      if (m === 0) return;
      sink(m === t.quantity ? netOf(t) : netOf(t) * BigInt(m), m === t.quantity ? 1n : BigInt(t.quantity));
      if (m === state.shares) {
        state.cost = 0n;
        state.inexact = 0;
      } else {
        const held = BigInt(state.shares);
        const left = state.cost * (held - BigInt(m));
        state.cost = left / held;
        if (state.cost * held !== left) state.inexact++;
      }
      state.shares -= m;
    },
  );
}

/**
 * The realized figure of one holding's whole history, exactly: the walk of walkAverageCost with
 * the cost kept as a fraction. Its denominator can grow with every partial sell, which is why
 * only the exact fallback (exact.ts) comes here.
 */
export function exactAverageCost(trades: readonly ParsedTrade[], credits: readonly ParsedCredit[]): Fraction {
  const ordered = inFifoOrder(trades) ? trades : [...trades].sort(fifoOrder);
  let shares = 0;
  let num = 0n;
  let den = 1n;
  let whole = 0n;
  const parts: [bigint, bigint][] = [];
  inAverageOrder(
    ordered,
    sortedCredits(credits),
    (c) => {
      shares += c.quantity;
    },
    (t) => {
      if (t.type === "buy") {
        const cost = costOf(t);
        num += cost * den;
        shares += t.quantity;
        whole -= cost;
        return;
      }
      const m = Math.min(t.quantity, shares);
      if (m === 0) return;
      if (m === t.quantity) whole += netOf(t);
      else parts.push([netOf(t) * BigInt(m), BigInt(t.quantity)]);
      // The cost left is C * (Q - m) / Q, reduced so the fraction stays as small as it can.
      const held = BigInt(shares);
      num *= held - BigInt(m);
      den *= held;
      const g = gcd(num < 0n ? -num : num, den);
      if (g > 1n) {
        num /= g;
        den /= g;
      }
      shares -= m;
    },
  );
  return sumFractions([[whole, 1n], [num, den], ...parts]);
}

/**
 * The walk's order: a credit dated D comes after the trades dated before D and before those
 * dated D or later, as in FIFO. A credit or trade without shares takes no part.
 */
function inAverageOrder(
  trades: readonly ParsedTrade[],
  credits: readonly ParsedCredit[],
  onCredit: (c: ParsedCredit) => void,
  onTrade: (t: ParsedTrade) => void,
): void {
  let next = 0;
  for (const t of trades) {
    while (next < credits.length && (credits[next] as ParsedCredit).day <= t.day) {
      const c = credits[next++] as ParsedCredit;
      if (c.quantity > 0) onCredit(c);
    }
    if (t.quantity > 0) onTrade(t);
  }
  for (; next < credits.length; next++) {
    const c = credits[next] as ParsedCredit;
    if (c.quantity > 0) onCredit(c);
  }
}
