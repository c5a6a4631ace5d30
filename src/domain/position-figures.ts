/**
 * What moved the portfolio over a period (s, e] (docs/performance.md, "Per stock"): the period's
 * figures restricted to each stock code k, all accounts of the ledger together. MV_k, In_k and
 * Out_k are MV, In and Out of k's positions alone (a cash dividend counts for its code), so the
 * codes' exact start and end values, flows and pnl add up to the period's. Each code's twr chains
 * r_k(d) = (MV_k(d) + Out_k(d)) / (MV_k(d') + In_k(d)) - 1 over the period's points (0 when the
 * denominator is 0), d' the customer's point before d. Exact throughout, rounded once at output.
 */
import { Decimal } from "./decimal";
import type { Fraction } from "./exact";
import { ONE, ZERO, add, div, fraction, integer, isZero, mul, roundScaled, sub } from "./rational";

/** One code at one point, money in 10^-4 đồng. */
export interface SeriesCode {
  code: string;
  /** Shares after the events dated on or before the point, all accounts. */
  shares: number;
  /** MV_k: shares × close over its priced positions, plus C of those with no close yet. */
  value: Fraction;
  /** A ledger event of the code is dated on the point (whatever it moved). */
  event: boolean;
  invested: bigint;
  /** The sells' Out. */
  withdrawn: Fraction;
  /** The cash dividends' Out. */
  dividends: bigint;
}

export interface PositionFigures {
  stock_code: string;
  shares: number;
  start_value: Decimal;
  end_value: Decimal;
  invested: Decimal;
  withdrawn: Decimal;
  dividends: Decimal;
  pnl: Decimal;
  twr: Decimal;
  weight: Decimal | null;
}

const money = (f: Fraction) => Decimal.fromScaled(roundScaled(fraction(f.num, f.den * 10_000n), 2), 2);
const rate = (f: Fraction) => Decimal.fromScaled(roundScaled(f, 4), 4);

/** a - b for exact ordering; denominators are positive. */
const compare = (a: Fraction, b: Fraction) => {
  const d = a.num * b.den - b.num * a.den;
  return d > 0n ? 1 : d < 0n ? -1 : 0;
};

interface CodeState {
  code: string;
  listed: boolean;
  shares: number;
  start: Fraction;
  end: Fraction;
  /** MV_k at the point before the one being read. */
  previous: Fraction;
  linked: Fraction;
  invested: Fraction;
  withdrawn: Fraction;
  dividends: Fraction;
}

const stateOf = (states: Map<string, CodeState>, code: string): CodeState => {
  let state = states.get(code);
  if (!state) {
    state = {
      code,
      listed: false,
      shares: 0,
      start: ZERO,
      end: ZERO,
      previous: ZERO,
      linked: ONE,
      invested: ZERO,
      withdrawn: ZERO,
      dividends: ZERO,
    };
    states.set(code, state);
  }
  return state;
};

/** Reads one point of the period into its codes' states. */
function readPoint(states: Map<string, CodeState>, codes: readonly SeriesCode[]) {
  const seen = new Set<string>();
  for (const c of codes) {
    const state = stateOf(states, c.code);
    seen.add(c.code);
    const paidIn = integer(c.invested);
    const dividend = integer(c.dividends);
    const base = add(state.previous, paidIn);
    if (!isZero(base)) state.linked = mul(state.linked, div(add(add(c.value, c.withdrawn), dividend), base));
    state.invested = add(state.invested, paidIn);
    state.withdrawn = add(state.withdrawn, c.withdrawn);
    state.dividends = add(state.dividends, dividend);
    if (c.event) state.listed = true;
    state.previous = c.value;
  }
  // A code not at the point holds no shares there: its MV_k is 0.
  for (const state of states.values()) if (!seen.has(state.code)) state.previous = ZERO;
}

/** The codes' figures, in the answer's order: end_value descending, then pnl descending, then code. */
function figuresOf(states: Iterable<CodeState>, endValue: Fraction): PositionFigures[] {
  const rows = [...states]
    .filter((s) => s.listed)
    .map((s) => ({ s, pnl: sub(s.end, sub(add(s.start, s.invested), add(s.withdrawn, s.dividends))) }));
  rows.sort((a, b) => compare(b.s.end, a.s.end) || compare(b.pnl, a.pnl) || (a.s.code < b.s.code ? -1 : 1));
  return rows.map(({ s, pnl }) => ({
    stock_code: s.code,
    shares: s.shares,
    start_value: money(s.start),
    end_value: money(s.end),
    invested: money(s.invested),
    withdrawn: money(s.withdrawn),
    dividends: money(s.dividends),
    pnl: money(pnl),
    twr: rate(sub(s.linked, ONE)),
    weight: isZero(endValue) ? null : rate(div(s.end, endValue)),
  }));
}

/**
 * The codes over (s, e]: `anchor` the codes at the latest point on or before s (none before the
 * first point), `range` each point of the period ascending (the last is e), `endValue` MV(e).
 * Listed: every code with an event in the period, or shares at s or at e.
 */
export function positionsOver(
  anchor: readonly SeriesCode[] | undefined,
  range: readonly (readonly SeriesCode[])[],
  endValue: Fraction,
): PositionFigures[] {
  const states = new Map<string, CodeState>();
  for (const c of anchor ?? []) {
    const state = stateOf(states, c.code);
    state.start = c.value;
    state.previous = c.value;
    if (c.shares > 0) state.listed = true;
  }
  for (const codes of range) readPoint(states, codes);
  for (const c of range[range.length - 1] ?? []) {
    const state = stateOf(states, c.code);
    state.end = c.value;
    state.shares = c.shares;
    if (c.shares > 0) state.listed = true;
  }
  return figuresOf(states.values(), endValue);
}

/** An empty period at e: the codes with shares at e, both values MV_k(e), no flow. */
export function positionsAt(codes: readonly SeriesCode[], endValue: Fraction): PositionFigures[] {
  const states = new Map<string, CodeState>();
  for (const c of codes) {
    if (c.shares <= 0) continue;
    const state = stateOf(states, c.code);
    Object.assign(state, { listed: true, shares: c.shares, start: c.value, end: c.value });
  }
  return figuresOf(states.values(), endValue);
}
