/**
 * The exact fallback: when a fixed-scale sum lies too close to a rounding boundary (fixed.ts),
 * the figure is summed again from the individual deals as exact fractions. Only undecided
 * figures come here, so its cost does not burden ordinary books.
 */
import type { DealSink } from "./fifo";

export interface Fraction {
  num: bigint;
  /** > 0 */
  den: bigint;
}

/** The exact sums the metrics may ask for, over one customer's deals. */
export interface ExactSums {
  pnl(kind: "win" | "loss" | "all"): Fraction;
  days(kind: "win" | "loss"): Fraction;
  monthPnl(month: string): Fraction;
  /** Realized P&L by average cost (average-cost.ts): the sum of the holdings' figures given to addAverageCost. */
  averageCost(): Fraction;
}

/**
 * Collects every deal of a customer (through `sink`), then sums on demand. Terms are grouped by
 * denominator first (the parts of one lot share theirs), then added pairwise in a balanced
 * tree, so the numbers multiplied stay of similar size instead of one growing sum.
 */
export function exactCollector(): { sink: DealSink; addAverageCost: (f: Fraction) => void; sums: ExactSums } {
  const nums: bigint[] = [];
  const dens: bigint[] = [];
  const shareDays: number[] = [];
  const matched: number[] = [];
  const months: string[] = [];
  const averageTerms: [bigint, bigint][] = [];
  const addAverageCost = (f: Fraction) => {
    averageTerms.push([f.num, f.den]);
  };
  const sink: DealSink = (sell, m, pnl, num, den, days) => {
    const integer = !Number.isNaN(pnl); // the exact integer pnl (fifo.ts DealSink)
    nums.push(integer ? BigInt(pnl) : num);
    dens.push(integer ? 1n : den);
    shareDays.push(days);
    matched.push(m);
    months.push(sell.trade_date.slice(0, 7));
  };
  const pick = (keep: (i: number) => boolean, term: (i: number) => [bigint, bigint]) => {
    const terms: [bigint, bigint][] = [];
    for (let i = 0; i < nums.length; i++) if (keep(i)) terms.push(term(i));
    return sumFractions(terms);
  };
  const isKind = (kind: "win" | "loss" | "all") => (i: number) =>
    kind === "all" || (kind === "win" ? (nums[i] as bigint) > 0n : (nums[i] as bigint) < 0n);
  const pnlTerm = (i: number): [bigint, bigint] => [nums[i] as bigint, dens[i] as bigint];
  const sums: ExactSums = {
    pnl: (kind) => pick(isKind(kind), pnlTerm),
    days: (kind) => pick(isKind(kind), (i) => [BigInt(shareDays[i] as number), BigInt(matched[i] as number)]),
    monthPnl: (month) => pick((i) => months[i] === month, pnlTerm),
    averageCost: () => sumFractions(averageTerms),
  };
  return { sink, addAverageCost, sums };
}

export function sumFractions(terms: readonly (readonly [bigint, bigint])[]): Fraction {
  const byDen = new Map<bigint, bigint>();
  for (const [num, den] of terms) byDen.set(den, (byDen.get(den) ?? 0n) + num);
  let level: Fraction[] = [...byDen].map(([den, num]) => ({ num, den }));
  if (level.length === 0) return { num: 0n, den: 1n };
  while (level.length > 1) {
    const next: Fraction[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) next.push(add(level[i] as Fraction, level[i + 1] as Fraction));
    if (level.length % 2 === 1) next.push(level[level.length - 1] as Fraction);
    level = next;
  }
  return level[0] as Fraction;
}

function add(a: Fraction, b: Fraction): Fraction {
  if (a.den === b.den) return { num: a.num + b.num, den: a.den };
  return { num: a.num * b.den + b.num * a.den, den: a.den * b.den };
}
