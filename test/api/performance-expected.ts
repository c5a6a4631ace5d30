/**
 * The expected `data` of GET /api/performance/:slug for the test/api/performance*.test.ts suites,
 * written once: the answer for a customer with nothing in the period (no point, no flow, no close),
 * and each case passes the fields its rule is about. The result is the WHOLE body the reference and
 * the endpoint are compared with (toEqual), so a field a case leaves to the defaults is still
 * checked: it must be the default. Without `drawdown` and `positions`, as expectPerformance
 * (../performance/ledger.ts) compares them only when a case gives them: a case about what moved
 * the period adds both, `{ ...expectedPerformance({...}), drawdown, positions }`, each position
 * whole from expectedPosition.
 */
import type { z } from "@hono/zod-openapi";
import type { Performance } from "../../src/schemas/performance";

/** The period's figures and its points as the wire has them (z.input: numbers, not Decimals): the answer less what moved it. */
export type PerformanceFigures = Omit<z.input<typeof Performance>, "drawdown" | "positions">;

/** One stock code's figures over the period, as the wire has them. */
export type PositionFigures = z.input<typeof Performance>["positions"][number];

/** The benchmark with no close at s nor at e. */
export const NO_BENCHMARK: PerformanceFigures["benchmark"] = {
  code: "VNINDEX",
  start_close: null,
  end_close: null,
  return: null,
};

/** The whole expected body: the defaults (nothing happened, the query had none of range, from, to) with `overrides` over them. */
export function expectedPerformance(overrides: Partial<PerformanceFigures> = {}): PerformanceFigures {
  return {
    range: "max",
    from: null,
    to: null,
    interval: "day",
    start_date: null,
    end_date: null,
    as_of: null,
    clamped: false,
    start_value: 0,
    end_value: 0,
    invested: 0,
    withdrawn: 0,
    dividends: 0,
    net_invested: 0,
    pnl: 0,
    twr: 0,
    mwr: { rate: null, status: "no_period" },
    annualized: null,
    benchmark: NO_BENCHMARK,
    unpriced_value: 0,
    unpriced_positions: 0,
    dividends_receivable: 0,
    holdings_mismatch: 0,
    points: [],
    ...overrides,
  };
}

/** No fall: the time-weighted growth never went down over the period. */
export const NO_DRAWDOWN = { max: 0, peak_date: null, trough_date: null };

/** One code's whole expected figures: nothing held and no flow (weight 0), with `overrides` over them. */
export function expectedPosition(
  stock_code: string,
  overrides: Partial<Omit<PositionFigures, "stock_code">> = {},
): PositionFigures {
  return {
    stock_code,
    shares: 0,
    start_value: 0,
    end_value: 0,
    invested: 0,
    withdrawn: 0,
    dividends: 0,
    pnl: 0,
    twr: 0,
    weight: 0,
    ...overrides,
  };
}
