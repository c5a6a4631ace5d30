/**
 * The mwr equation as a polynomial g(x) = sum c_i x^(t_i) (see ./index.ts): the flows combined
 * into terms, and g evaluated in balls (bigfloat.ts) with its derivative and error bounds.
 */
import { type Ball, bitLength, narrow, powBall } from "../bigfloat";
import { sumFractions } from "../exact";
import { abs } from "../units";
import { TOLERANCE } from "./constants";
import type { CashFlow } from "./types";

// ---------------------------------------------------------------------------------------------
// Flows to terms

/** One power of x: the flows at t, summed, over sum |CF| (so the tolerance is 10^-50 exactly). */
export interface Term {
  t: number;
  num: bigint;
  /** > 0 */
  den: bigint;
}

export function combine(flows: readonly CashFlow[], start: number): Term[] {
  const scale = sumFractions(flows.map((f) => [abs(f.amount.num), f.amount.den] as const));
  const byT = new Map<number, [bigint, bigint][]>();
  for (const flow of flows) {
    if (flow.amount.num === 0n) continue;
    const t = flow.t - start;
    let list = byT.get(t);
    if (!list) byT.set(t, (list = []));
    list.push([flow.amount.num, flow.amount.den]);
  }
  const terms: Term[] = [];
  for (const [t, list] of byT) {
    const sum = sumFractions(list);
    if (sum.num === 0n) continue;
    // (sum / scale), scale > 0
    terms.push({ t, num: sum.num * scale.den, den: sum.den * scale.num });
  }
  return terms.sort((a, b) => a.t - b.t);
}

// ---------------------------------------------------------------------------------------------
// The general case

/** g's value, its derivative's numerator and a bound for its second derivative's, at one x. */
export interface Evaluation {
  /** g(x), with σ applied (positive just above y = -1) */
  g: Ball;
  /** sum c_i t_i x^(t_i) = x g'(x) */
  s1: Ball;
  /** an upper bound of sum |c_i| t_i (t_i - 1) x^(t_i), so |g''(ξ)| <= s2 / x^2 for 0 <= ξ <= x */
  s2: bigint;
  /** Laguerre: the number of changes of sign among the partial sums of c_i x^(t_i) from the latest t back, or null when a sum's sign is uncertain */
  tailChanges: number | null;
}

export class Polynomial {
  readonly terms: readonly Term[];
  private readonly fixed = new Map<number, bigint[]>();
  private readonly sums = new Map<number, bigint>();

  constructor(terms: readonly Term[]) {
    // σ: the sign of the latest coefficient, which rules as y -> -1 (x -> ∞); applied to all, so
    // "sign σ" is "positive" from here on.
    const last = terms[terms.length - 1] as Term;
    this.terms = last.num > 0n ? terms : terms.map((term) => ({ ...term, num: -term.num }));
  }

  /** The coefficients at w bits, truncated (error < 1 ulp each). */
  coefficients(w: number): bigint[] {
    let cs = this.fixed.get(w);
    if (!cs) {
      cs = this.terms.map((term) => (term.num << BigInt(w)) / term.den);
      this.fixed.set(w, cs);
    }
    return cs;
  }

  /** The number of changes of sign in the coefficients, by t: Descartes' bound on g's positive roots. */
  descartes(): number {
    let changes = 0;
    for (let i = 1; i < this.terms.length; i++)
      if ((this.terms[i] as Term).num < 0n !== (this.terms[i - 1] as Term).num < 0n) changes++;
    return changes;
  }

  /** sum |c~_i| at w bits (<= 2^w + n, since the coefficients are over sum |CF|). */
  private absSum(w: number): bigint {
    let sum = this.sums.get(w);
    if (sum === undefined) {
      sum = this.coefficients(w).reduce((total, c) => total + abs(c), 0n);
      this.sums.set(w, sum);
    }
    return sum;
  }

  /**
   * g at x, and with `full` its derivative's numerator, the bound for the second derivative and
   * Laguerre's count. The powers x^(t_i) are chained (x^(t_i) = x^(t_(i-1)) x^(t_i - t_(i-1)),
   * each a product of balls); the products c~_i p~_i are summed exactly at 2w bits. Each differs
   * from c_i x^(t_i) 2^(2w) by at most |c~_i| rho_i + |p~_i| + rho_i (rho_i the power's radius,
   * 1 ulp the coefficient's truncation), so any partial sum, g's included, is within
   * E = rho_max (sum |c~| + n) + n P at 2w bits (P >= every p~_i), and S1 = sum t_i c_i p_i within t_max E.
   */
  evaluate(x: Ball, w: number, full = true, widened = false): Evaluation {
    const W = BigInt(w);
    const n = this.terms.length;
    const squares: Ball[] = [];
    // P bounds every power's midpoint (checked as they come): twice the larger of 1 and x^(t_max).
    const top = powBall(x, (this.terms[n - 1] as Term).t, w, squares);
    const one = 1n << W;
    const above = bitLength(top.mid) - w; // log2 x^(t_max), when x > 1
    if (above > 16 && !widened) {
      // The radii below are absolute, bounded through P: with powers spanning 2^above, work
      // 2 above bits wider so that they stay small beside the largest terms, then come back.
      const extra = 2 * above + 32;
      const e = this.evaluate({ mid: x.mid << BigInt(extra), rad: x.rad << BigInt(extra) }, w + extra, full, true);
      return { g: narrow(e.g, extra), s1: narrow(e.s1, extra), s2: (e.s2 >> BigInt(extra)) + 1n, tailChanges: e.tailChanges };
    }
    const cs = this.coefficients(w);
    const P = 2n * (top.mid + top.rad > one ? top.mid + top.rad : one);
    const steps = new Map<number, { mid: bigint; shifted: bigint; fixed: bigint }>();
    let pMid = one;
    let pRad = 0n;
    let previous = 0;
    const products: bigint[] = full ? new Array<bigint>(n) : [];
    let sum = 0n;
    let maxRad = 0n;
    let s1 = 0n;
    let s2 = 0n;
    for (let i = 0; i < n; i++) {
      const t = (this.terms[i] as Term).t;
      const d = t - previous;
      if (d > 0) {
        let step = steps.get(d);
        if (!step) {
          const ball = powBall(x, d, w, squares);
          // the radius of a chained product, both factors positive: floor((p s + s~ rho + rho s~_rad) / 2^w)
          // + 2 <= ceil(P s_rad / 2^w) + floor(q rho / 2^32) + 3, with q / 2^32 >= (s + s_rad) / 2^w
          step = { mid: ball.mid, shifted: ((P * ball.rad) >> W) + 1n, fixed: ((ball.mid + ball.rad) >> (W - 32n)) + 1n };
          steps.set(d, step);
        }
        pRad = step.shifted + ((step.fixed * pRad) >> 32n) + 3n;
        pMid = (pMid * step.mid) >> W;
        if (pMid > P) throw new Error("evaluate: a power above its bound");
        previous = t;
      }
      if (pRad > maxRad) maxRad = pRad;
      const product = (cs[i] as bigint) * pMid;
      sum += product;
      if (full) {
        products[i] = product;
        if (t > 0) {
          s1 += BigInt(t) * product;
          if (t > 1) s2 += BigInt(t * (t - 1)) * abs(product);
        }
      }
    }
    const spread = maxRad * (this.absSum(w) + BigInt(n)) + BigInt(n) * P; // E at 2w bits (sum |p~_i| <= n P)
    const g = { mid: sum >> W, rad: (spread >> W) + 2n };
    if (!full) return { g, s1: { mid: 0n, rad: 0n }, s2: 0n, tailChanges: null };
    const tMax = BigInt((this.terms[n - 1] as Term).t);
    const s1Ball = { mid: s1 >> W, rad: ((tMax * spread) >> W) + 2n };
    // sum |c_i| t(t-1) x^t 2^2w <= sum t(t-1) (|c~_i p~_i| + its error) <= s2 + t_max^2 E, then at w bits
    const s2Bound = ((s2 + tMax * tMax * spread) >> W) + 1n;
    let tailChanges: number | null = 0;
    let sign = 1;
    let tail = 0n;
    for (let i = n - 1; i >= 0; i--) {
      tail += products[i] as bigint;
      const s = tail > spread ? 1 : tail < -spread ? -1 : 0;
      if (s === 0) {
        tailChanges = null;
        break;
      }
      if (s !== sign) {
        tailChanges++;
        sign = s;
      }
    }
    return { g, s1: s1Ball, s2: s2Bound, tailChanges };
  }
}

/** The sign of a value of g under the tolerance: 0 when |g| < 10^-50 certainly, undefined when the ball cannot tell. */
export function toleranceSign(g: Ball, w: number): -1 | 0 | 1 | undefined {
  const one = 1n << BigInt(w);
  const lo = (g.mid - g.rad) * TOLERANCE;
  const hi = (g.mid + g.rad) * TOLERANCE;
  if (lo >= one) return 1;
  if (hi <= -one) return -1;
  if (hi < one && lo > -one) return 0;
  return undefined;
}
