/**
 * Real numbers with a proven error bound, in BigInt fixed point: the arithmetic that decides the
 * irrational figures of mwr/ and returns.ts (a money-weighted return, an annualized return) at their
 * rounding boundaries. No float takes part in a value here.
 *
 * A Ball at `w` bits is the set of reals in [(mid - rad) / 2^w, (mid + rad) / 2^w]: every
 * operation returns a ball that contains the exact result of the operation on any members of its
 * inputs. Each error term below is counted in units of 2^-w ("ulps"); the bounds are deliberately
 * loose (a few ulps each), since a caller that cannot decide at one precision retries at a higher.
 */
import { abs, roundDiv } from "./units";

export interface Ball {
  mid: bigint;
  /** >= 0 */
  rad: bigint;
}

/** The number of bits of |n| (0 for 0). */
export function bitLength(n: bigint): number {
  const a = abs(n);
  if (a === 0n) return 0;
  const hex = a.toString(16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(Number.parseInt(hex[0] as string, 16)));
}

/** ceil(a / 2^s) for a >= 0. */
export function ceilShift(a: bigint, s: number): bigint {
  if (s <= 0) return a << BigInt(-s);
  return (a + (1n << BigInt(s)) - 1n) >> BigInt(s);
}

/** The product: floor of the midpoints' product (error < 1 ulp) plus the spread of the inputs. */
export function mulBall(a: Ball, b: Ball, w: number): Ball {
  const mid = (a.mid * b.mid) >> BigInt(w);
  if (a.rad === 0n && b.rad === 0n) return { mid, rad: 1n };
  const spread = abs(a.mid) * b.rad + abs(b.mid) * a.rad + a.rad * b.rad;
  return { mid, rad: ceilShift(spread, w) + 1n };
}

/** x^n for an integer n >= 0, by squaring; `cache` keeps powers of two (x^(2^k)) across calls. */
export function powBall(x: Ball, n: number, w: number, cache: Ball[]): Ball {
  if (cache.length === 0) cache.push(x);
  let result: Ball = { mid: 1n << BigInt(w), rad: 0n };
  let first = true;
  for (let k = 0, rest = n; rest > 0; k++, rest = Math.floor(rest / 2)) {
    while (cache.length <= k) {
      const last = cache[cache.length - 1] as Ball;
      cache.push(mulBall(last, last, w));
    }
    if (rest % 2 === 1) {
      result = first ? (cache[k] as Ball) : mulBall(result, cache[k] as Ball, w);
      first = false;
    }
  }
  return result;
}

/**
 * 2 atanh(num / den) at w bits, for |num / den| <= 1/3 and den > 0, by its series
 * 2 (z + z^3/3 + z^5/5 + ...).
 *
 * With Z = trunc(z 2^w) (error < 1) and Z2 = floor(Z^2 / 2^w) (error < 2|z| + 1 < 2), the odd
 * powers P_j = floor(P_{j-1} Z2 / 2^w) of z^(2j+1) 2^w carry an error e_j <= 1 + 2|z|^(2j-1) +
 * e_(j-1) (z^2 + 2^(1-w)) <= 1.9, so each term trunc(P_j / (2j+1)) is within 2.9 < 4 ulps. The
 * series stops at the first |P_j| <= 3: then |z|^(2j+1) 2^w <= 4.9 and every later term together
 * is below 4.9 * 9/8 < 6 ulps (|z| <= 1/3 gives a geometric tail with ratio 1/9).
 */
function atanh2(num: bigint, den: bigint, w: number): Ball {
  const W = BigInt(w);
  const z = (num << W) / den;
  const z2 = (z * z) >> W;
  let power = z;
  let sum = 0n;
  let terms = 0n;
  for (let j = 0n; abs(power) > 3n; j++) {
    sum += power / (2n * j + 1n);
    terms++;
    power = (power * z2) >> W;
  }
  return { mid: 2n * sum, rad: 2n * (4n * terms + 6n) };
}

const ln2Cache = new Map<number, Ball>();

/** ln 2 = 2 atanh(1/3). */
export function ln2Ball(w: number): Ball {
  let ball = ln2Cache.get(w);
  if (!ball) {
    ball = atanh2(1n, 3n, w);
    ln2Cache.set(w, ball);
  }
  return ball;
}

/**
 * ln(n) = k ln 2 + ln(n / 2^k) for an integer n >= 1 as `k` and the ball of the second part:
 * k is chosen so that m = n / 2^k lies in [1/sqrt 2, sqrt 2), where z = (m - 1) / (m + 1) =
 * (n - 2^k) / (n + 2^k) has |z| < 0.18.
 */
function lnInteger(n: bigint, w: number): { k: number; rest: Ball } {
  let k = bitLength(n) - 1;
  // m >= sqrt 2 exactly when n^2 >= 2^(2k+1)
  if (n * n >= 1n << BigInt(2 * k + 1)) k += 1;
  const power = 1n << BigInt(k);
  return { k, rest: atanh2(n - power, n + power, w) };
}

/** ln(p / q) for integers p, q >= 1, at w bits. */
export function lnRatioBall(p: bigint, q: bigint, w: number): Ball {
  if (p <= 0n || q <= 0n) throw new RangeError("ln of a non-positive ratio");
  const guard = 8 + bitLength(BigInt(bitLength(p) + bitLength(q) + 2));
  const wide = w + guard;
  const a = lnInteger(p, wide);
  const b = lnInteger(q, wide);
  const k = BigInt(a.k - b.k);
  const ln2 = ln2Ball(wide);
  const mid = a.rest.mid - b.rest.mid + k * ln2.mid;
  const rad = a.rest.rad + b.rest.rad + abs(k) * ln2.rad;
  return narrow({ mid, rad }, guard);
}

/** A ball at w + guard bits as one at w bits: floor the midpoint, widen by one ulp. */
export function narrow(ball: Ball, guard: number): Ball {
  if (guard === 0) return ball;
  return { mid: ball.mid >> BigInt(guard), rad: ceilShift(ball.rad, guard) + 1n };
}

/** The ball divided by a positive integer d. */
export function divBall(ball: Ball, d: bigint): Ball {
  return { mid: ball.mid / d, rad: ball.rad / d + 2n };
}

/**
 * e^v at w bits. v = k ln 2 + r with |r| <= ln2 / 2 + (rounding) < 0.35; e^r by its Taylor
 * series at the exact midpoint r~ of r: each term trunc(term r~ / (j 2^w)) carries an error
 * e_j <= 0.35 e_(j-1) + 1 < 1.6 ulps; the series stops at the first |term| <= 1, when the true
 * term is below 2.6 ulps and the rest of the series below 1 ulp. The spread rho of r moves e^r by
 * at most e^(0.35 + rho) rho < 1.5 rho (rho < 1/100 is required). Then the shift by 2^k.
 */
export function expBall(v: Ball, w: number): Ball {
  const guard = 20;
  const wide = w + guard;
  const W = BigInt(wide);
  const one = 1n << W;
  const vm = v.mid << BigInt(guard);
  const vr = v.rad << BigInt(guard);
  const ln2 = ln2Ball(wide);
  // k = round(v / ln 2), from the midpoints
  const k = roundDiv(vm, ln2.mid);
  const r = vm - k * ln2.mid;
  const rho = vr + abs(k) * ln2.rad + 1n;
  if (rho * 100n > one) throw new RangeError("expBall: the argument is too coarse for this precision");
  let sum = one;
  let term = one;
  let terms = 1n;
  for (let j = 1n; ; j++) {
    term = (term * r) / (j << W);
    sum += term;
    terms++;
    if (abs(term) <= 1n) break;
  }
  let mid = sum;
  let rad = 2n * terms + 2n + (3n * rho + 1n) / 2n + 1n;
  if (k >= 0n) {
    mid <<= k;
    rad <<= k;
  } else {
    const s = Number(-k);
    mid >>= BigInt(s);
    rad = ceilShift(rad, s) + 1n;
  }
  return narrow({ mid, rad }, guard);
}

/** (p / q)^(-1/n) at w bits, for integers p, q, n >= 1: exp(-ln(p / q) / n). */
export function rootBall(p: bigint, q: bigint, n: number, w: number): Ball {
  const guard = 8;
  const ln = divBall(lnRatioBall(p, q, w + guard), BigInt(n));
  return narrow(expBall({ mid: -ln.mid, rad: ln.rad }, w + guard), guard);
}

/** The nearest double to a ball's midpoint, keeping its relative precision: for guiding a search only. */
export function approx(v: bigint, w: number): number {
  if (v === 0n) return 0;
  const shift = bitLength(v) - 60;
  if (shift <= 0) return Number(v) * 2 ** -w;
  return Number(v >> BigInt(shift)) * 2 ** (shift - w);
}
