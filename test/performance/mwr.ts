/**
 * The money-weighted return of docs/performance.md, read literally, for the reference: f(y) = sum CF ×
 * (1 + y)^(-t/T); the rate is the smallest y in (-1, 10^6) where f changes sign, and a rounding
 * boundary b is decided by the sign of f(b) (σ, the sign of f just above -1: the root is past b
 * when f(b) has sign σ; f(b) = 0 is the root b, rounded away from zero). Exactly, with fractions,
 * when every t is 0 or T; otherwise at 75 places (./precise.ts) with |f(b)| below 10^-50 × sum
 * |CF| counted as 0, as it says.
 *
 * The search works in z = ln(1 + y), where f(z) = sum CF × e^(-z t/T). It walks (z0, ln(10^6 + 1))
 * from the left, dropping every interval on which σf > 0 is proven by a Lipschitz bound, so the
 * first interval left is the first change of sign, never a later one; it then bisects it.
 */
import { Fraction } from "../domain/fraction";
import { exp, fixed, ln, mul, ONE, toFraction } from "./precise";

/** Cash flows by t (days from the start), summed per t; T the period in days (> 0). */
export interface CashFlows {
  T: number;
  byDay: Map<number, Fraction>;
}

export type Root =
  /** The exact root (every t is 0 or T). */
  | { kind: "exact"; y: Fraction }
  /** z = ln(1 + y) of the root, within 10^-40, with what decides a boundary exactly. */
  | { kind: "approx"; z: bigint; sideOfZ: (zb: bigint) => number };

export type MwrAnswer = { status: "ok"; root: Root; rate: string } | { status: "no_root" };

const Y_MAX = new Fraction(1_000_000n);

/**
 * A value rounded to 4 places half away from zero, from an approximation within 10^-30 and a
 * decision for a boundary b: `side(b)` is 1 when the value is above b, 0 when it is b, -1 below.
 */
export function roundRate(approx: Fraction, side: (b: Fraction) => number): string {
  const scaled = approx.mul(new Fraction(10_000n));
  let n = scaled.num / scaled.den;
  if (scaled.num < 0n && n * scaled.den !== scaled.num) n -= 1n; // floor
  const boundary = new Fraction(2n * n + 1n, 20_000n); // (n + 1/2) / 10^4, the only one near
  const gap = approx.sub(boundary);
  const near =
    gap.mul(new Fraction(10n ** 30n)).compare(new Fraction(1n)) < 0 &&
    gap.mul(new Fraction(-(10n ** 30n))).compare(new Fraction(1n)) < 0;
  const where = near ? side(boundary) : gap.sign();
  const up = where > 0 || (where === 0 && boundary.sign() > 0);
  return decimalText(up ? n + 1n : n);
}

/** n / 10^4 as the shortest decimal text. */
function decimalText(n: bigint): string {
  const negative = n < 0n;
  const digits = (negative ? -n : n).toString().padStart(5, "0");
  const text = `${digits.slice(0, -4)}.${digits.slice(-4)}`.replace(/\.?0+$/, "");
  return text === "0" || text === "" ? "0" : (negative ? "-" : "") + text;
}

export function solveMwr(flows: CashFlows): MwrAnswer {
  const terms = [...flows.byDay.entries()].filter(([, cf]) => cf.sign() !== 0).sort((a, b) => a[0] - b[0]);
  const T = flows.T;
  if (terms.length < 2) return { status: "no_root" }; // f is constant or never 0
  if (terms.every(([t]) => t === 0 || t === T)) return exactRoot(terms);

  const sumAbs = terms.reduce((s, [, cf]) => s + abs(fixed(cf)), 0n);
  const zeroBelow = sumAbs / 10n ** 50n; // |f| below 10^-50 × sum |CF| counts as 0
  const slack = sumAbs / 10n ** 60n + 1000n; // far above the 75-place arithmetic's error
  const fixedTerms = terms.map(([t, cf]) => ({ t: BigInt(t), cf: fixed(cf) }));
  const bigT = BigInt(T);
  const f = (z: bigint) => fixedTerms.reduce((s, { t, cf }) => s + mul(cf, exp((-z * t) / bigT)), 0n);
  const lipschitz = (a: bigint) => fixedTerms.reduce((s, { t, cf }) => s + mul(abs(cf), (exp((-a * t) / bigT) * t) / bigT), 0n);

  const [tMax, cfMax] = terms[terms.length - 1]!;
  if (tMax === 0) return { status: "no_root" };
  const sigma = BigInt(cfMax.sign());
  // Below z0 the term of the largest t outweighs all others, so f has sign σ there.
  const tNext = terms[terms.length - 2]![0];
  const others = terms.slice(0, -1).reduce((s, [, cf]) => s + abs(fixed(cf)), 0n);
  const ratio = Math.log(Number(others) / Number(abs(fixed(cfMax))));
  const z0Days = -((T * Math.max(0, ratio + 1)) / (tMax - tNext)) - 12;
  const z0 = BigInt(Math.floor(z0Days)) * ONE;
  const zMax = ln(Y_MAX.add(new Fraction(1n)));

  const EPS = ONE / 10n ** 12n;
  /** The leftmost interval [lo, hi] of width < EPS with σf(hi) < 0 and none before it, or null. */
  const find = (a: bigint, b: bigint): [bigint, bigint] | null => {
    const m = (a + b) / 2n;
    const fm = sigma * f(m);
    if (fm - mul(lipschitz(a), (b - a) / 2n) > slack) return null;
    if (b - a < EPS) {
      if (fm < 0n) return [a, m];
      return sigma * f(b) < 0n ? [m, b] : null;
    }
    return find(a, m) ?? find(m, b);
  };
  const bracket = find(z0, zMax);
  if (!bracket) return { status: "no_root" };
  let [lo, hi] = bracket;
  while (hi - lo > ONE / 10n ** 45n) {
    const mid = (lo + hi) / 2n;
    if (sigma * f(mid) < 0n) hi = mid;
    else lo = mid;
  }
  if (hi >= zMax) return { status: "no_root" };
  const sideOfZ = (zb: bigint) => {
    const v = f(zb);
    if (abs(v) < zeroBelow) return 0;
    return sigma * v > 0n ? 1 : -1;
  };
  const root: Root = { kind: "approx", z: lo, sideOfZ };
  const y = toFraction(exp(lo) - ONE);
  const rate = roundRate(y, (b) => (b.compare(new Fraction(-1n)) <= 0 ? 1 : sideOfZ(ln(b.add(new Fraction(1n))))));
  return { status: "ok", root, rate };
}

function exactRoot(terms: [number, Fraction][]): MwrAnswer {
  const a0 = terms.find(([t]) => t === 0)?.[1];
  const aT = terms.find(([t]) => t !== 0)?.[1];
  if (!a0 || !aT || a0.sign() === aT.sign()) return { status: "no_root" };
  // f(y) = a0 + aT / (1 + y) = 0.
  const y = new Fraction(-aT.num * a0.den, aT.den * a0.num).sub(new Fraction(1n));
  if (y.compare(Y_MAX) >= 0) return { status: "no_root" };
  return { status: "ok", root: { kind: "exact", y }, rate: roundRate(y, (b) => y.compare(b)) };
}

/** (1 + y)^(365/T) - 1 of the root, rounded to 4 places (null never: 1 + y > 0). */
export function annualizedMwr(root: Root, T: number): string {
  if (root.kind === "exact") {
    const w = root.y.add(new Fraction(1n));
    return annualize(w, T);
  }
  const approx = toFraction(exp((root.z * 365n) / BigInt(T)) - ONE);
  // A > b  <=>  z > ln(1 + b) × T / 365, which the sign of f at that z decides.
  return roundRate(approx, (b) => {
    const w = b.add(new Fraction(1n));
    if (w.sign() <= 0) return 1;
    return root.sideOfZ((ln(w) * BigInt(T)) / 365n);
  });
}

/** w^(365/D) - 1 for an exact w > 0, rounded to 4 places; a boundary decided by exact powers. */
export function annualize(w: Fraction, D: number): string {
  const approx = toFraction(exp((ln(w) * 365n) / BigInt(D)) - ONE);
  return roundRate(approx, (b) => {
    const v = b.add(new Fraction(1n));
    if (v.sign() <= 0) return 1;
    // w^(365/D) vs v  <=>  w^365 vs v^D, both positive.
    const left = w.num ** 365n * v.den ** BigInt(D);
    const right = v.num ** BigInt(D) * w.den ** 365n;
    return left > right ? 1 : left < right ? -1 : 0;
  });
}

const abs = (n: bigint) => (n < 0n ? -n : n);
