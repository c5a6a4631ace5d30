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
 * - Otherwise every decision is a proof in fixed-point interval arithmetic (../bigfloat.ts), where a
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
 *
 * The files: ./polynomial.ts (the flows as terms, g in balls), ./round.ts (the rounding, exact or
 * at rising precision), ./guide.ts (the doubles' guess), ./isolate.ts (the walk that isolates the root).
 */
import { rootBall } from "../bigfloat";
import { Decimal } from "../decimal";
import { LADDER, PLACES, Y_MAX } from "./constants";
import { floatGuide } from "./guide";
import { type Isolation, walkToRoot } from "./isolate";
import { Polynomial, type Term, combine, toleranceSign } from "./polynomial";
import { type Root, compareRoot, guessUnits, linearRoot, roundBy } from "./round";
import type { CashFlow, Mwr } from "./types";

export type { CashFlow, Mwr, MwrStatus } from "./types";

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
