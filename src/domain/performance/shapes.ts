/**
 * What performanceFigures (src/domain/performance.ts) takes and returns: the series the read
 * statement returns (src/db/queries/performance.ts) and the answer's figures before they are
 * written out.
 */
import type { Decimal } from "../decimal";
import type { Drawdown } from "../drawdown";
import type { PositionFigures, SeriesCode } from "../position-figures";
import type { Mwr } from "../returns";

export type Interval = "day" | "week" | "month";

/** A point's raw figures, money as decimal text in đồng, or in 10^-4 đồng as whole numbers or [numerator, denominator]. */
export interface SeriesPoint {
  date: string;
  /** Shares × close over the priced positions, in đồng. */
  priced: string;
  unpriced: readonly (readonly [string, string])[];
  /** In 10^-4 đồng. */
  invested: string;
  withdrawn: readonly (readonly [string, string])[];
  dividends: string;
  /** The benchmark's latest close on or before the date. */
  close: string | null;
  /** The codes with shares at the date or a ledger event on it. */
  codes: readonly SeriesCode[];
}

/** What the read statement found: the period's bounds and the points from the anchor on. */
export interface Series {
  /** The effective range (null with `from`), and `from`, `to`, `interval` as asked. */
  range: string | null;
  from: string | null;
  to: string | null;
  interval: Interval | null;
  benchmark: string;
  asOf: string | null;
  firstPoint: string | null;
  /** e, the latest point on or before `to`; null when there is none. */
  end: string | null;
  /** s as the range names it, before it is clamped to the day before the first point. */
  start: string | null;
  /** The latest point on or before s. */
  anchor: string | null;
  /** The benchmark's latest close on or before s, on or before e (or `to`), on or before the first point. */
  startClose: string | null;
  endClose: string | null;
  firstClose: string | null;
  receivable: string;
  mismatch: number;
  points: readonly SeriesPoint[];
}

export interface PerformancePoint {
  date: string;
  value: Decimal;
  net_invested: Decimal;
  pnl: Decimal;
  twr: Decimal;
  benchmark: Decimal | null;
}

export interface PerformanceFigures {
  range: string | null;
  from: string | null;
  to: string | null;
  interval: Interval;
  start_date: string | null;
  end_date: string | null;
  as_of: string | null;
  clamped: boolean;
  start_value: Decimal;
  end_value: Decimal;
  invested: Decimal;
  withdrawn: Decimal;
  dividends: Decimal;
  net_invested: Decimal;
  pnl: Decimal;
  twr: Decimal;
  mwr: { rate: Decimal | null; status: Mwr["status"] };
  annualized: { twr: Decimal | null; mwr: Decimal | null } | null;
  benchmark: { code: string; start_close: Decimal | null; end_close: Decimal | null; return: Decimal | null };
  unpriced_value: Decimal;
  unpriced_positions: number;
  dividends_receivable: Decimal;
  holdings_mismatch: number;
  drawdown: Drawdown;
  positions: PositionFigures[];
  points: PerformancePoint[];
}
