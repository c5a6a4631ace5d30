/** What the money-weighted return (./index.ts) takes and gives. */
import type { Decimal } from "../decimal";
import type { Fraction } from "../exact";

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
