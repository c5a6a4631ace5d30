/**
 * The guide (./index.ts): where the root probably is, by doubles. A wrong guess costs time,
 * never a figure.
 */
import { approx } from "../bigfloat";
import type { Polynomial } from "./polynomial";

// ---------------------------------------------------------------------------------------------
// The guide: doubles, λ = ln(1 + y), f(λ) = sum c_i e^(-λ t_i / T)

export interface Guide {
  /** λ of the smallest change of sign the doubles see, or null */
  root: number | null;
  /** a λ below which the latest flow rules f (by the doubles) */
  low: number;
}

export const LAMBDA_MAX = Math.log(1_000_001);

export function floatGuide(poly: Polynomial, span: number): Guide {
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
export function xAt(lambda: number, span: number, w: number): bigint {
  const u = -lambda / span;
  const k = Math.floor(u / Math.LN2);
  const mantissa = BigInt(Math.round(Math.exp(u - k * Math.LN2) * 2 ** 52)); // in [2^52, 2^53]
  const e = k - 52 + w;
  return e >= 0 ? mantissa << BigInt(e) : mantissa >> BigInt(-e);
}
