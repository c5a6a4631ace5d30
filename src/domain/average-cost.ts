/**
 * Realized P&L by weighted average cost (README.md, "Corporate actions, average cost, dividends
 * and total return"), the figure Vietnamese brokers print beside (or instead of) FIFO: per
 * holding, in the FIFO walk's order, shares Q and cost C kept exactly. A buy adds its shares and
 * its cost with fee and tax; a share credit adds shares and no cost; a sell of q shares matches
 * m = min(q, Q) and realizes net * m / q - C * m / Q.
 */
import { costOf, netOf, type ParsedCredit, type ParsedTrade } from "./parse";
import { gcd } from "./units";

/** Where a holding's average cost stands: `shares` and a cost of num / den (10^-4 đồng, den > 0). */
export interface AverageCost {
  shares: number;
  num: bigint;
  den: bigint;
}

/** As a stored partial keeps it: [shares, numerator, denominator], decimal strings for the money. */
export type StoredAverageCost = [shares: number, num: string, den: string];

export const noAverageCost = (): AverageCost => ({ shares: 0, num: 0n, den: 1n });

export const storeAverageCost = (a: AverageCost): StoredAverageCost => [a.shares, a.num.toString(), a.den.toString()];

export const loadAverageCost = ([shares, num, den]: StoredAverageCost): AverageCost => ({
  shares,
  num: BigInt(num),
  den: BigInt(den),
});

/**
 * Receives the parts of the walk's realized figure, num / den in 10^-4 đồng (den > 0, not
 * reduced). With the cost at the end of the walk less the cost at its start, which the walk
 * leaves to its caller (addHolding, src/domain/aggregate.ts), they sum to the figure exactly.
 */
export type AverageSink = (num: bigint, den: bigint) => void;

/**
 * Walks one holding's trades (fifoOrder) and credits (creditOrder) from `state`, passing the
 * parts of its realized figure to `sink`, and leaves the holding's shares and cost in `state`.
 * A credit dated D comes after the trades dated before D and before those dated D or later, as
 * in FIFO.
 *
 * The sells' figures (net * m / q - C * m / Q each) are passed in another form with the same
 * sum: the costs out add up to the cost at the start, plus the buys' costs, less the cost at the
 * end, so the walk passes each sell's net * m / q and each buy's cost negated, and the caller
 * adds the cost at the end less the cost at the start. All but those two are whole 10^-4 đồng
 * when a sell matches all its shares, so a holding sold out sums exactly in the fixed scale
 * (fixed.ts) however its average cost divided: the stored total_return part (total-return.ts)
 * cannot be decided from an inexact sum that lands on a whole 10^-4, and needs no deals then.
 */
export function walkAverageCost(
  trades: readonly ParsedTrade[],
  credits: readonly ParsedCredit[],
  state: AverageCost,
  sink: AverageSink,
): void {
  let next = 0;
  for (const t of trades) {
    while (next < credits.length && (credits[next] as ParsedCredit).day <= t.day) credit(state, credits[next++] as ParsedCredit);
    if (t.quantity <= 0) continue; // as in FIFO: a row without shares takes no part
    if (t.type === "buy") {
      const cost = costOf(t);
      state.num += cost * state.den;
      state.shares += t.quantity;
      sink(-cost, 1n);
      continue;
    }
    const m = Math.min(t.quantity, state.shares);
    if (m === 0) continue;
    const held = BigInt(state.shares);
    const sold = BigInt(m);
    sink(m === t.quantity ? netOf(t) : netOf(t) * sold, m === t.quantity ? 1n : BigInt(t.quantity));
    // The cost left is C * (Q - m) / Q, reduced so the fraction stays as small as it can.
    let num = state.num * (held - sold);
    let den = state.den * held;
    const g = gcd(num < 0n ? -num : num, den);
    if (g > 1n) {
      num /= g;
      den /= g;
    }
    state.num = num;
    state.den = den;
    state.shares -= m;
  }
  while (next < credits.length) credit(state, credits[next++] as ParsedCredit);
}

function credit(state: AverageCost, c: ParsedCredit): void {
  if (c.quantity > 0) state.shares += c.quantity;
}
