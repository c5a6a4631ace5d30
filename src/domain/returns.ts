/**
 * The money-weighted return and the annualized returns of docs/performance.md ("The rules,
 * exactly"), rounded once, half away from zero, to 4 places.
 *
 * With cash flows CF_i at t_i whole days after the start and T the period's days,
 * f(y) = sum CF_i (1 + y)^(-t_i / T). The rate is the smallest y in (-1, 10^6) at which f changes
 * sign. Writing x = (1 + y)^(-1/T) (x falls as y rises) turns f into the polynomial
 * g(x) = sum CF_i x^(t_i), so the smallest y is the largest root x of g above
 * x_min = (10^6 + 1)^(-1/T). Rounding compares the root with the half-way points b: the root lies
 * past b exactly when f(b) has the sign σ that f has just above -1 (the sign of the latest
 * flow's coefficient), and when f(b) = 0 it is b and rounds away from zero.
 *
 * - When every flow is at 0 or T, f = A + B / (1 + y) and the root 1 + y = -B / A is a rational
 *   number: it is rounded exactly.
 * - Otherwise every decision is a proof in fixed-point interval arithmetic (bigfloat.ts), where a
 *   value of f within 10^-50 × sum |CF| of 0 counts as 0 (docs/performance.md). The smallest root is first
 *   isolated: an interval [xLo, xHi] with g > -tol on [xHi, ∞) (so no change of sign at a smaller
 *   y), g <= -tol at xLo and g increasing on [xLo, xHi] (so exactly one change of sign in it).
 *   The certificates: Descartes' rule of signs on the coefficients (at most one sign change: at
 *   most one positive root), Laguerre's rule on the partial sums of sum c_i r^(t_i) taken from
 *   the latest flow back (no change of sign there: no root above r), and, between, a walk down
 *   in x with Taylor steps g(x - h) >= g(x) - h g'(x) - h^2 M / 2, M bounding |g''| on the step.
 *   A dip of f to the other side by less than the tolerance is a zero without a change of sign,
 *   as the rule counts f(b) at a boundary.
 * Doubles only guide the search (where the root probably is, how long a step to try); a wrong
 * guess costs time, never a figure.
 */
import { type Ball, approx, bitLength, lnRatioBall, narrow, powBall, rootBall } from "./bigfloat";
import { Decimal } from "./decimal";
import { type Fraction, sumFractions } from "./exact";
import { abs, gcd } from "./units";
import { fraction } from "./rational";

/** A cash flow of the mwr equation: `t` whole days after the period's start (0 <= t <= T), signed amount (exact). */
export interface CashFlow {
  t: number;
  amount: Fraction;
}

export type MwrStatus = "ok" | "no_root" | "no_period";

export interface Mwr {
  /** Rounded to 4 places (a fraction: 0.0123 is 1.23%), null unless status is "ok". */
  rate: Decimal | null;
  status: MwrStatus;
  /** (1 + y)^(365/T) - 1 from the exact root y, rounded to 4 places; null unless status is "ok" and periodDays >= 365. */
  annualized: Decimal | null;
}

const PLACES = 4;
/** |f| below sum |CF| / 10^50 counts as 0 (docs/performance.md, `mwr`). */
const TOLERANCE = 10n ** 50n;
const Y_MAX = 1_000_000n;
/** The precisions (bits) a decision is tried at, in turn. */
const LADDER = [128, 256, 512, 1024, 2048, 4096, 8192];
/** The walk's bound: far above what any book of flows needs (a few dozen steps), so never reached but by construction. */
const MAX_STEPS = 5000;

const NO_PERIOD: Mwr = { rate: null, status: "no_period", annualized: null };
const NO_ROOT: Mwr = { rate: null, status: "no_root", annualized: null };

/**
 * The money-weighted return of `flows` over T days (`mwr` in docs/performance.md), with its annualized figure when
 * `periodDays` (e - s) >= 365.
 *
 * `flows` are the flows of docs/performance.md as they are, zero amounts included (ignored):
 * -MV(s) at t = 0, -In(d) and +Out(d) at t = d - s, +MV(e) at t = T = e - s. This function applies its rule for
 * MV(s) = 0 itself: t and T count from the earliest nonzero flow, which is the first nonzero In
 * or Out when MV(s) = 0 and t = 0 otherwise; so the caller may count t from s always (counting
 * from that date already gives the same answer). `no_period` follows: no nonzero flow before the
 * last date with one (T = 0, or MV(s) = 0 and every nonzero flow dated e).
 * Throws RangeError when a t or T is not an integer with 0 <= t <= T.
 */
export function moneyWeightedReturn(flows: readonly CashFlow[], T: number, periodDays: number): Mwr {
  if (!Number.isSafeInteger(T) || T < 0) throw new RangeError(`T must be a whole number of days: ${T}`);
  let start = Number.POSITIVE_INFINITY;
  for (const flow of flows) {
    if (!Number.isSafeInteger(flow.t) || flow.t < 0 || flow.t > T)
      throw new RangeError(`A flow's t must be a whole day in [0, T]: ${flow.t}`);
    if (flow.amount.den <= 0n) throw new RangeError("A flow's amount must have a positive denominator");
    if (flow.amount.num !== 0n && flow.t < start) start = flow.t;
  }
  if (start === Number.POSITIVE_INFINITY || T - start === 0) return NO_PERIOD;
  const span = T - start;
  const terms = combine(flows, start);
  const root = terms.every((term) => term.t === 0 || term.t === span) ? linearRoot(terms, span) : generalRoot(terms, span);
  if (root === null) return NO_ROOT;
  return {
    rate: Decimal.fromScaled(root.rate, PLACES),
    status: "ok",
    annualized: periodDays >= 365 ? Decimal.fromScaled(root.annualized(), PLACES) : null,
  };
}

/**
 * (1 + twr)^(365/days) - 1 from the exact `twr`, rounded to 4 places; null when 1 + twr <= 0
 * (`annualized.twr` in docs/performance.md). Called when days >= 365, but right for any days >= 1. `twr` must be
 * in lowest terms, den > 0, as src/domain/rational.ts gives it; then so is 1 + twr. Reducing it
 * here again ran Euclid on a product of a thousand days' values: most of a range=max read
 * (`rational` in docs/sync.md).
 */
export function annualizedTwr(twr: Fraction, days: number): Decimal | null {
  if (!Number.isSafeInteger(days) || days < 1) throw new RangeError(`days must be a positive whole number: ${days}`);
  const base = { num: twr.num + twr.den, den: twr.den };
  if (base.num <= 0n) return null;
  return Decimal.fromScaled(roundPower(base, 365, days), PLACES);
}

// ---------------------------------------------------------------------------------------------
// Flows to terms

/** One power of x: the flows at t, summed, over sum |CF| (so the tolerance is 10^-50 exactly). */
interface Term {
  t: number;
  num: bigint;
  /** > 0 */
  den: bigint;
}

function combine(flows: readonly CashFlow[], start: number): Term[] {
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

interface Root {
  /** The rate in 10^-4. */
  rate: bigint;
  /** The annualized figure in 10^-4, computed on demand. */
  annualized: () => bigint;
}

// ---------------------------------------------------------------------------------------------
// Rounding by boundaries

/**
 * round(v) to 10^-4, half away from zero, where `above(p, q)` is the sign of v - b for the
 * half-way point b with 1 + b = p / q (q > 0), and v > -1. A gallop from `guess` then a
 * bisection over the integers, so a poor guess costs a few more comparisons, never a wrong result.
 */
function roundBy(above: (p: bigint, q: bigint) => number, guess: bigint): bigint {
  // v rounds to j or more exactly when v >= (j - 1/2) 10^-4 (j >= 1) or v > (j - 1/2) 10^-4 (j <= 0).
  const atLeast = (j: bigint): boolean => {
    const p = 20_000n + 2n * j - 1n;
    if (p <= 0n) return true; // b <= -1 < v
    const c = above(p, 20_000n);
    return c > 0 || (c === 0 && j >= 1n);
  };
  let lo: bigint;
  let hi: bigint;
  if (atLeast(guess)) {
    lo = guess;
    for (let step = 1n; ; step *= 2n) {
      hi = lo + step;
      if (!atLeast(hi)) break;
      lo = hi;
    }
  } else {
    hi = guess;
    for (let step = 1n; ; step *= 2n) {
      lo = hi - step;
      if (atLeast(lo)) break;
      hi = lo;
    }
  }
  while (hi - lo > 1n) {
    const mid = lo + (hi - lo) / 2n;
    if (atLeast(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** A double's nearest 10^-4 count (for a guess only); 0 for anything not finite. */
function guessUnits(value: number): bigint {
  if (!Number.isFinite(value)) return 0n;
  const scaled = value * 10_000;
  if (Math.abs(scaled) < 2 ** 53) return BigInt(Math.round(scaled));
  const e = Math.floor(Math.log2(Math.abs(scaled))) - 52;
  return BigInt(Math.round(scaled / 2 ** e)) << BigInt(e);
}

// ---------------------------------------------------------------------------------------------
// (p/q)^(a/c) - 1: the annualized twr, and the annualized mwr of a rational root

/** round((base)^(a/c) - 1) in 10^-4, base > 0 reduced, a, c >= 1. */
function roundPower(base: Fraction, a: number, c: number): bigint {
  const g = Number(gcd(BigInt(a), BigInt(c)));
  const a1 = a / g;
  const c1 = c / g;
  const lnBase = approxLn(base.num) - approxLn(base.den);
  const guess = guessUnits(Math.expm1((a1 / c1) * lnBase));
  return roundBy((p, q) => comparePower(base, a1, c1, fraction(p, q)), guess);
}

/** ln n for an integer n >= 1, approximately (for a guess). */
function approxLn(n: bigint): number {
  const bits = bitLength(n);
  if (bits <= 1000) return Math.log(Number(n));
  return Math.log(Number(n >> BigInt(bits - 60))) + (bits - 60) * Math.LN2;
}

/**
 * The sign of (p/q)^(a/c) - u/v, for reduced positive fractions and coprime a, c >= 1: 0 exactly
 * when equal (equalPower), else by a ln(p/q) against c ln(u/v) in balls of rising precision.
 * Two unequal sides differ: p^a v^c and u^c q^a are distinct integers of at most N bits, so
 * the logs differ by more than 2^-(N+1); the precision is raised until the balls part, which
 * they do below N + 2 + (their own spread) bits: the loop is bounded by that.
 */
function comparePower(base: Fraction, a: number, c: number, target: Fraction): number {
  if (equalPower(base, a, c, target)) return 0;
  const sizeA = Math.max(bitLength(base.num), bitLength(base.den));
  const sizeC = Math.max(bitLength(target.num), bitLength(target.den));
  const enough = a * sizeA + c * sizeC + 64 + 2 * bitLength(BigInt(a * c)) + 2 * bitLength(BigInt(sizeA + sizeC));
  for (let w = 64; ; w *= 2) {
    const left = lnRatioBall(base.num, base.den, w);
    const right = lnRatioBall(target.num, target.den, w);
    const A = BigInt(a);
    const C = BigInt(c);
    const lo1 = A * (left.mid - left.rad);
    const hi1 = A * (left.mid + left.rad);
    const lo2 = C * (right.mid - right.rad);
    const hi2 = C * (right.mid + right.rad);
    if (lo1 > hi2) return 1;
    if (hi1 < lo2) return -1;
    if (w > 2 * enough) throw new Error("comparePower: undecided past its proven precision");
  }
}

/**
 * (p/q)^a = (u/v)^c exactly? Both sides are reduced fractions, so p^a = u^c and q^a = v^c, and
 * with a, c coprime that holds exactly when p = r^c and u = r^a for an integer r (and q, v
 * likewise): a root and a power to check, never the (possibly enormous) powers themselves.
 */
function equalPower(base: Fraction, a: number, c: number, target: Fraction): boolean {
  const samePower = (p: bigint, u: bigint): boolean => {
    const r = integerRoot(u, a);
    if (r ** BigInt(a) !== u) return false;
    if (r === 1n) return p === 1n;
    if ((bitLength(r) - 1) * c > bitLength(p)) return false;
    return r ** BigInt(c) === p;
  };
  return samePower(base.num, target.num) && samePower(base.den, target.den);
}

/** floor(n^(1/k)) for n >= 0, k >= 1, by Newton's method from above. */
function integerRoot(n: bigint, k: number): bigint {
  if (n < 2n || k === 1) return n;
  const K = BigInt(k);
  let x = 1n << BigInt(Math.ceil(bitLength(n) / k));
  for (;;) {
    const next = ((K - 1n) * x + n / x ** (K - 1n)) / K;
    if (next >= x) return x;
    x = next;
  }
}

// ---------------------------------------------------------------------------------------------
// The exact case: every flow at 0 or T

function linearRoot(terms: readonly Term[], span: number): Root | null {
  const A = terms.find((term) => term.t === 0);
  const B = terms.find((term) => term.t === span);
  if (!A || !B || A.num < 0n === B.num < 0n) return null;
  // A + B / (1 + y) = 0: 1 + y = -B / A > 0
  const base = fraction(-B.num * A.den, B.den * A.num);
  if (base.num >= (Y_MAX + 1n) * base.den) return null; // the root is 10^6 or past it
  const guess = guessUnits(Math.expm1(approxLn(base.num) - approxLn(base.den)));
  const rate = roundBy((p, q) => compareFractions(base, { num: p, den: q }), guess);
  return { rate, annualized: () => roundPower(base, 365, span) };
}

function compareFractions(a: Fraction, b: Fraction): number {
  const d = a.num * b.den - b.num * a.den;
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}

// ---------------------------------------------------------------------------------------------
// The general case

/** g's value, its derivative's numerator and a bound for its second derivative's, at one x. */
interface Evaluation {
  /** g(x), with σ applied (positive just above y = -1) */
  g: Ball;
  /** sum c_i t_i x^(t_i) = x g'(x) */
  s1: Ball;
  /** an upper bound of sum |c_i| t_i (t_i - 1) x^(t_i), so |g''(ξ)| <= s2 / x^2 for 0 <= ξ <= x */
  s2: bigint;
  /** Laguerre: the number of changes of sign among the partial sums of c_i x^(t_i) from the latest t back, or null when a sum's sign is uncertain */
  tailChanges: number | null;
}

class Polynomial {
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
function toleranceSign(g: Ball, w: number): -1 | 0 | 1 | undefined {
  const one = 1n << BigInt(w);
  const lo = (g.mid - g.rad) * TOLERANCE;
  const hi = (g.mid + g.rad) * TOLERANCE;
  if (lo >= one) return 1;
  if (hi <= -one) return -1;
  if (hi < one && lo > -one) return 0;
  return undefined;
}

/**
 * Where the smallest root is proven to lie: g > -tol on [hi, ∞), g <= -tol at lo, g increasing on
 * [lo, hi] (hi null: the root is g's only one above lo). Both are exact x 2^w.
 */
interface Isolation {
  lo: bigint;
  hi: bigint | null;
  w: number;
}

/**
 * The sign of y - b for the smallest root y, where 1 + b = p / q and x_b = (p/q)^(-1/n): n = T
 * places b itself; n = 365 places the b of the annualized figure, since (1 + y)^(365/T) = 1 + b
 * exactly when y's x is (1 + b)^(-1/365).
 */
function compareRoot(poly: Polynomial, iso: Isolation, p: bigint, q: bigint, n: number): number {
  const ladder = LADDER.filter((w) => w >= iso.w);
  for (let i = 0; i < ladder.length; i++) {
    const w = ladder[i] as number;
    const last = i === ladder.length - 1;
    const shift = BigInt(w - iso.w);
    const lo = iso.lo << shift;
    const hi = iso.hi === null ? null : iso.hi << shift;
    const x = rootBall(p, q, n, w);
    if (hi !== null && x.mid - x.rad > hi) return 1; // x_b above the root: b below it
    if (x.mid + x.rad < lo) return -1;
    const straddles = x.mid - x.rad <= lo || (hi !== null && x.mid + x.rad >= hi);
    if (straddles && !last) continue;
    const s = toleranceSign(poly.evaluate(x, w, false).g, w);
    if (s !== undefined) return s;
    if (last) return poly.evaluate(x, w, false).g.mid > 0n ? 1 : -1; // |g| within 2^-8000 of the tolerance itself
  }
  throw new Error("compareRoot: no precision");
}

/** The sign of g (under the tolerance) at y = 10^6, decided at rising precision. */
function signAtMax(poly: Polynomial, span: number): number {
  for (const w of LADDER) {
    const s = toleranceSign(poly.evaluate(rootBall(Y_MAX + 1n, 1n, span, w), w, false).g, w);
    if (s !== undefined) return s;
  }
  return poly.evaluate(rootBall(Y_MAX + 1n, 1n, span, 8192), 8192, false).g.mid > 0n ? 1 : -1;
}

function generalRoot(terms: readonly Term[], span: number): Root | null {
  if (terms.length < 2) return null; // a constant
  const poly = new Polynomial(terms);
  const changes = poly.descartes();
  if (changes === 0) return null; // no positive root at all
  const guide = floatGuide(poly, span);
  const atMax = signAtMax(poly, span);
  let iso: Isolation | null = null;
  const w0 = LADDER[0] as number;
  const xMinLo = (() => {
    const x = rootBall(Y_MAX + 1n, 1n, span, w0);
    return x.mid - x.rad - 1n;
  })();
  if (changes === 1) {
    // Exactly one positive root, a simple one: in range when g < 0 at y = 10^6.
    if (atMax >= 0) return null;
    iso = { lo: xMinLo, hi: null, w: w0 };
  } else {
    const laguerre = poly.evaluate(rootBall(Y_MAX + 1n, 1n, span, 256), 256).tailChanges;
    if (laguerre === 0) return null; // no root above x_min, g(x_min) > 0
    if (laguerre === 1 && atMax < 0) iso = { lo: xMinLo, hi: null, w: w0 };
    else iso = walkToRoot(poly, span, guide);
    if (iso === null) return null;
  }
  const found = iso;
  const guessY = guide.root === null ? 0 : Math.expm1(guide.root);
  const rate = roundBy((p, q) => compareRoot(poly, found, p, q, span), guessUnits(guessY));
  return {
    rate,
    annualized: () => {
      const guessA = guide.root === null ? 0 : Math.expm1((365 / span) * guide.root);
      return roundBy((p, q) => compareRoot(poly, found, p, q, 365), guessUnits(guessA));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The guide: doubles, λ = ln(1 + y), f(λ) = sum c_i e^(-λ t_i / T)

interface Guide {
  /** λ of the smallest change of sign the doubles see, or null */
  root: number | null;
  /** a λ below which the latest flow rules f (by the doubles) */
  low: number;
}

const LAMBDA_MAX = Math.log(1_000_001);

function floatGuide(poly: Polynomial, span: number): Guide {
  const cs = poly.coefficients(64).map((c) => approx(c, 64));
  const ts = poly.terms.map((term) => term.t);
  const n = cs.length;
  // f(λ) e^(λ t_max / T) = sum c_i e^(λ (t_max - t_i) / T): the same signs and roots, and no
  // overflow however far below 0 λ goes (every exponent is <= 0 there, and <= ln(10^6 + 1) above).
  const tMax = ts[n - 1] as number;
  const at = (lambda: number): { f: number; f1: number; f2: number; rest: number } => {
    const base = Math.exp(lambda / span);
    let power = 1;
    let previous = tMax;
    let f = 0;
    let f1 = 0;
    let f2 = 0;
    let rest = 0;
    for (let i = n - 1; i >= 0; i--) {
      const t = ts[i] as number;
      if (t !== previous) {
        power *= previous - t === 1 ? base : base ** (previous - t);
        previous = t;
      }
      const term = (cs[i] as number) * power;
      const s = (tMax - t) / span;
      f += term;
      f1 += s * term;
      f2 += s * s * term;
      if (i < n - 1) rest += Math.abs(term);
    }
    return { f, f1, f2, rest };
  };
  // A λ where the latest flow outweighs all others twice over (x = e^(-λ/T) stays a double).
  let low = -1;
  while (low > -700 * span && !((cs[n - 1] as number) > 2 * at(low).rest)) low *= 2;
  let lambda = low;
  let v = at(lambda);
  if (v.f <= 0) return { root: lambda, low };
  // Steps that keep f's predicted value above a third of it (f'' taken 50% larger than here);
  // at a change of sign, a safeguarded Newton search in the bracket.
  for (let step = 0; step < 10_000 && lambda < LAMBDA_MAX; step++) {
    const m = 1.5 * Math.abs(v.f2) + 1e-3 * v.f;
    let h = (v.f1 + Math.sqrt(v.f1 * v.f1 + (4 / 3) * m * v.f)) / m;
    if (!(h > 1e-9 * (1 + Math.abs(lambda)))) h = 1e-9 * (1 + Math.abs(lambda));
    const next = Math.min(lambda + h, LAMBDA_MAX);
    const w = at(next);
    if (w.f <= 0) return { root: w.f === 0 ? next : refine(at, lambda, next), low };
    lambda = next;
    v = w;
  }
  return { root: null, low };
}

/** A root of f in (a, b), f(a) > 0 >= f(b): Newton's steps kept inside the bracket, else halving. */
function refine(at: (lambda: number) => { f: number; f1: number }, a: number, b: number): number {
  let x = (a + b) / 2;
  for (let i = 0; i < 100 && b - a > 1e-13 * (1 + Math.abs(a)); i++) {
    const v = at(x);
    if (v.f > 0) a = x;
    else b = x;
    const newton = x - v.f / v.f1;
    x = newton > a && newton < b && Number.isFinite(newton) ? newton : (a + b) / 2;
  }
  return x;
}

/** x = e^(-λ/T) as an exact x 2^w (from a double: a guess, made exact), for any size of x. */
function xAt(lambda: number, span: number, w: number): bigint {
  const u = -lambda / span;
  const k = Math.floor(u / Math.LN2);
  const mantissa = BigInt(Math.round(Math.exp(u - k * Math.LN2) * 2 ** 52)); // in [2^52, 2^53]
  const e = k - 52 + w;
  return e >= 0 ? mantissa << BigInt(e) : mantissa >> BigInt(-e);
}

// ---------------------------------------------------------------------------------------------
// The walk

/**
 * Isolates the smallest root (Isolation), or null when g has no change of sign for y in
 * (-1, 10^6). First a start: a point where Laguerre's rule proves no root above (tried just
 * above the guide's root, then farther out). Then the walk down in x, each step proven by
 * Taylor's bound, each stop a chance to isolate the root by a Newton step past it.
 */
function walkToRoot(poly: Polynomial, span: number, guide: Guide): Isolation | null {
  const top = LADDER[LADDER.length - 1] as number;
  let w = LADDER[0] as number;
  const target = guide.root;
  // The start.
  let X: bigint | null = null;
  const anchor = target ?? LAMBDA_MAX;
  for (let delta = 1e-7; anchor - delta > -1400 * span; delta *= 8) {
    const candidate = xAt(anchor - delta, span, w);
    if (poly.evaluate({ mid: candidate, rad: 0n }, w).tailChanges === 0) {
      X = candidate;
      break;
    }
  }
  if (X === null) throw new Error("mwr: no point where the latest flow rules (flows beyond a double's range)");
  const floorAt = (bits: number) => {
    const x = rootBall(Y_MAX + 1n, 1n, span, bits);
    return x.mid - x.rad - 1n;
  };
  let floor = floorAt(w);
  // Just past the guide's root (in y): where g should be below -tol.
  const past = target === null ? null : xAt(target + 1e-9, span, w);
  let pastSign: number | undefined | null = null; // null: not evaluated yet
  const raise = () => {
    const shift = BigInt(w);
    w *= 2;
    X = (X as bigint) << shift;
    floor = floorAt(w);
  };
  for (let step = 0; step < MAX_STEPS; step++) {
    if (X <= floor) return null; // g > -tol on [x_min, ∞): no change of sign in (-1, 10^6]
    const e = poly.evaluate({ mid: X, rad: 0n }, w);
    if (e.g.rad * 4n > abs(e.g.mid) && e.g.rad * TOLERANCE * 8n > 1n << BigInt(w) && w < top) {
      raise(); // the ball is too coarse to walk on, and coarser than the tolerance
      continue;
    }
    if (past !== null) {
      const lo = past << BigInt(w - (LADDER[0] as number));
      if (lo < X && (e.s1.mid - e.s1.rad) * X > (X - lo) * e.s2) {
        // g increases on [lo, X]: it isolates the root if g(lo) <= -tol
        if (pastSign === null) pastSign = signAt(poly, past, LADDER[0] as number);
        if (pastSign === -1) return { lo, hi: X, w };
      }
    }
    let H = chooseStep(e, X, w);
    if (H > X - floor) H = X - floor;
    if (H === 0n || H * 2n ** 40n < X) {
      // Stalled, or crawling: a root close below? A Newton step from here, then longer ones.
      const iso = newtonIsolate(poly, X, w, e);
      if (iso) return iso;
      if (H === 0n) {
        if (w >= top) break;
        raise();
        continue;
      }
    }
    X -= H;
  }
  throw new Error("mwr: the walk did not finish (pathological flows)");
}

/** The sign of g (under the tolerance) at the exact x = X 2^-w, at rising precision. */
function signAt(poly: Polynomial, X: bigint, w: number): -1 | 0 | 1 | undefined {
  for (const bits of LADDER) {
    if (bits < w) continue;
    const s = toleranceSign(poly.evaluate({ mid: X << BigInt(bits - w), rad: 0n }, bits, false).g, bits);
    if (s !== undefined) return s;
  }
  return undefined;
}

/**
 * The longest step H (in 2^-w) the Taylor bound proves: g(ξ) > -tol for ξ in [X - H, X] when
 * g(X) - h g'(X) - h^2 M / 2 > -tol with M = s2 / x^2 >= |g''| there (the bound is concave in h,
 * so its ends suffice). In integers, multiplied by 2 X^2 2^w 10^50:
 * (2 X^2 G - 2 H X S1 - H^2 S2) 10^50 > -2 X^2 2^w.
 */
function chooseStep(e: Evaluation, X: bigint, w: number): bigint {
  const G = e.g.mid - e.g.rad;
  const S1 = e.s1.mid + e.s1.rad;
  const S2 = e.s2;
  const one = 1n << BigInt(w);
  const proves = (H: bigint): boolean => {
    const lhs = (2n * X * X * G - 2n * H * X * S1 - H * H * S2) * TOLERANCE;
    return lhs > -2n * X * X * one;
  };
  // a guess by doubles: aim at g's lower bound falling to half of its value (or of its distance to -tol)
  const g = approx(G, w);
  const x = approx(X, w);
  const g1 = approx(S1, w) / x;
  const m = approx(S2, w) / (x * x);
  const slack = g > 0 ? g * 0.9 : (g + 1e-50) / 2;
  let h: number;
  if (slack <= 0) return 0n;
  if (m > 0) h = (-g1 + Math.sqrt(g1 * g1 + 2 * m * slack)) / m;
  else h = g1 > 0 ? slack / g1 : x / 2;
  if (!(h > 0) || !Number.isFinite(h)) return 0n;
  let H = guessUnitsScaled(h, w);
  for (let i = 0; i < 64 && H > 0n; i++) {
    if (proves(H)) return H;
    H /= 2n;
  }
  return 0n;
}

/** h 2^w as an integer (a double's guess). */
function guessUnitsScaled(h: number, w: number): bigint {
  const e = Math.floor(Math.log2(h)) - 52;
  const mantissa = BigInt(Math.round(h / 2 ** e));
  return e + w >= 0 ? mantissa << BigInt(e + w) : mantissa >> BigInt(-(e + w));
}

/**
 * With g > -tol proven on [X, ∞): [lo, X] isolates the smallest root when g(lo) <= -tol and
 * g' > 0 on [lo, X], that is x g'(x) >= S1 - (X - ξ) s2 / X > 0 (|x g''| bounded as in
 * Evaluation); in integers S1_lo X > (X - lo) s2.
 */
function isolate(poly: Polynomial, X: bigint, lo: bigint, w: number, e: Evaluation): Isolation | null {
  if (lo >= X || lo <= 0n) return null;
  if ((e.s1.mid - e.s1.rad) * X <= (X - lo) * e.s2) return null;
  return signAt(poly, lo, w) === -1 ? { lo, hi: X, w } : null;
}

function newtonIsolate(poly: Polynomial, X: bigint, w: number, e: Evaluation): Isolation | null {
  const S1 = e.s1.mid;
  if (S1 <= 0n) return null;
  const D = (e.g.mid * X) / S1; // g / g' in 2^-w
  for (const k of [2n, 4n, 16n]) {
    const lo = X - (D > 0n ? D * k : k);
    const iso = isolate(poly, X, lo, w, e);
    if (iso) return iso;
  }
  return null;
}
