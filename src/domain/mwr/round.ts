/**
 * Deciding the 4-place rounding (./index.ts): a search over the half-way points, each compared
 * with the root exactly (a rational root, a power) or in balls at rising precision.
 */
import { bitLength, lnRatioBall, rootBall } from "../bigfloat";
import type { Fraction } from "../exact";
import { fraction } from "../rational";
import { gcd } from "../units";
import { LADDER, Y_MAX } from "./constants";
import type { Isolation } from "./isolate";
import { type Polynomial, type Term, toleranceSign } from "./polynomial";

export interface Root {
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
export function roundBy(above: (p: bigint, q: bigint) => number, guess: bigint): bigint {
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
export function guessUnits(value: number): bigint {
  if (!Number.isFinite(value)) return 0n;
  const scaled = value * 10_000;
  if (Math.abs(scaled) < 2 ** 53) return BigInt(Math.round(scaled));
  const e = Math.floor(Math.log2(Math.abs(scaled))) - 52;
  return BigInt(Math.round(scaled / 2 ** e)) << BigInt(e);
}

// ---------------------------------------------------------------------------------------------
// (p/q)^(a/c) - 1: the annualized twr, and the annualized mwr of a rational root

/** round((base)^(a/c) - 1) in 10^-4, base > 0 reduced, a, c >= 1. */
export function roundPower(base: Fraction, a: number, c: number): bigint {
  const g = Number(gcd(BigInt(a), BigInt(c)));
  const a1 = a / g;
  const c1 = c / g;
  const lnBase = approxLn(base.num) - approxLn(base.den);
  const guess = guessUnits(Math.expm1((a1 / c1) * lnBase));
  return roundBy((p, q) => comparePower(base, a1, c1, fraction(p, q)), guess);
}

/** ln n for an integer n >= 1, approximately (for a guess). */
export function approxLn(n: bigint): number {
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

export function linearRoot(terms: readonly Term[], span: number): Root | null {
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

/**
 * The sign of y - b for the smallest root y, where 1 + b = p / q and x_b = (p/q)^(-1/n): n = T
 * places b itself; n = 365 places the b of the annualized figure, since (1 + y)^(365/T) = 1 + b
 * exactly when y's x is (1 + b)^(-1/365).
 */
export function compareRoot(poly: Polynomial, iso: Isolation, p: bigint, q: bigint, n: number): number {
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
