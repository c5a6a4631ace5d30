/**
 * Isolating the smallest root (./index.ts): the walk down in x by Taylor steps, and Newton steps
 * past the root, each proven in balls.
 */
import { approx, rootBall } from "../bigfloat";
import { abs } from "../units";
import { LADDER, MAX_STEPS, TOLERANCE, Y_MAX } from "./constants";
import { type Guide, LAMBDA_MAX, xAt } from "./guide";
import { type Evaluation, type Polynomial, toleranceSign } from "./polynomial";

/**
 * Where the smallest root is proven to lie: g > -tol on [hi, ∞), g <= -tol at lo, g increasing on
 * [lo, hi] (hi null: the root is g's only one above lo). Both are exact x 2^w.
 */
export interface Isolation {
  lo: bigint;
  hi: bigint | null;
  w: number;
}

// ---------------------------------------------------------------------------------------------
// The walk

/**
 * Isolates the smallest root (Isolation), or null when g has no change of sign for y in
 * (-1, 10^6). First a start: a point where Laguerre's rule proves no root above (tried just
 * above the guide's root, then farther out). Then the walk down in x, each step proven by
 * Taylor's bound, each stop a chance to isolate the root by a Newton step past it.
 */
export function walkToRoot(poly: Polynomial, span: number, guide: Guide): Isolation | null {
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
