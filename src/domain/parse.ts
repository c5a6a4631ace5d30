/**
 * A holding's inputs as the walks read them: each trade's money parsed once into 10^-4 đồng and
 * its date into a day number, each share credit's date likewise, and the orders the FIFO walk
 * (fifo.ts) and the average-cost walk (average-cost.ts) both follow. Apart from the walks
 * because both read these and neither owns them: parsing happens once per trade, before any
 * walk, and the order rules (docs/pnl.md and docs/corporate-actions.md) are stated here once.
 */
import type { CreditInput, TradeInput } from "./types";
import { parseUnits, smallUnits } from "./units";

/** A transaction with its money parsed once, in 10^-4 đồng. */
export interface ParsedTrade {
  id: string;
  account_id: string;
  trade_date: string;
  /** trade_date as days since 1970-01-01, for ordering and holding days. */
  day: number;
  /** trade_date's year * 12 + month, so runs of one month are found without reading strings. */
  month: number;
  stock_code: string;
  type: "buy" | "sell";
  quantity: number;
  /**
   * Money in 10^-4 đồng. Doubles when all three are small (units.ts smallUnits: exact, and so
   * are their sums), which skips most bigint work; otherwise `big` holds them and these are 0.
   */
  total_value: number;
  fee: number;
  personal_tax: number;
  big: { total_value: bigint; fee: bigint; personal_tax: bigint } | null;
}

export function parseTrade(t: TradeInput): ParsedTrade {
  const value = smallUnits(t.total_value);
  const fee = smallUnits(t.fee);
  const tax = smallUnits(t.personal_tax);
  const small = value >= 0 && fee >= 0 && tax >= 0;
  return {
    id: t.id,
    account_id: t.account_id,
    trade_date: t.trade_date,
    day: dayNumber(t.trade_date),
    month: lastMonth,
    stock_code: t.stock_code,
    type: t.type,
    quantity: t.quantity,
    total_value: small ? value : 0,
    fee: small ? fee : 0,
    personal_tax: small ? tax : 0,
    big: small
      ? null
      : { total_value: parseUnits(t.total_value), fee: parseUnits(t.fee), personal_tax: parseUnits(t.personal_tax) },
  };
}

/**
 * A share credit as the walks need it (docs/corporate-actions.md).
 */
export interface ParsedCredit {
  id: string;
  ex_date: string;
  /** ex_date as days since 1970-01-01, like ParsedTrade.day. */
  day: number;
  quantity: number;
}

export function parseCredit(c: CreditInput): ParsedCredit {
  return { id: c.id, ex_date: c.ex_date, day: dayNumber(c.ex_date), quantity: c.quantity };
}

/** Credits by ex_date, those of one date by id (docs/corporate-actions.md). */
export function creditOrder(a: ParsedCredit, b: ParsedCredit): number {
  if (a.day !== b.day) return a.day - b.day;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** `credits` in creditOrder, sorted only when they are not already. */
export function sortedCredits(credits: readonly ParsedCredit[]): readonly ParsedCredit[] {
  for (let i = 1; i < credits.length; i++) {
    if (creditOrder(credits[i - 1] as ParsedCredit, credits[i] as ParsedCredit) > 0) return [...credits].sort(creditOrder);
  }
  return credits;
}

/** A buy's cost, value + fee + tax, exactly. */
export function costOf(t: ParsedTrade): bigint {
  return t.big ? t.big.total_value + t.big.fee + t.big.personal_tax : BigInt(t.total_value + t.fee + t.personal_tax);
}

/** A sell's net proceeds, value - fee - tax, exactly. */
export function netOf(t: ParsedTrade): bigint {
  return t.big ? t.big.total_value - t.big.fee - t.big.personal_tax : BigInt(t.total_value - t.fee - t.personal_tax);
}

/** True when `trades` are already in fifoOrder: one inlined pass, cheaper than sorting them. */
export function inFifoOrder(trades: readonly ParsedTrade[]): boolean {
  for (let i = 1; i < trades.length; i++) if (fifoOrder(trades[i - 1] as ParsedTrade, trades[i] as ParsedTrade) > 0) return false;
  return true;
}

/** trade_date, then buys before sells on the same date, then id. */
export function fifoOrder(a: ParsedTrade, b: ParsedTrade): number {
  if (a.day !== b.day) return a.day - b.day;
  if (a.type !== b.type) return a.type === "buy" ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Days since 1970-01-01 for a YYYY-MM-DD date, by whole-number calendar arithmetic (H. Hinnant's
 * days_from_civil): valid for every year 0000-9999, where Date.UTC maps years below 100 to 19xx.
 */
export function dayNumber(date: string): number {
  if (date === lastDate) return lastDay; // trades arrive in runs of one date
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  const y = Number(date.slice(0, 4)) - (m <= 2 ? 1 : 0);
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  lastDate = date;
  lastDay = era * 146_097 + dayOfEra - 719_468;
  lastMonth = Number(date.slice(0, 4)) * 12 + m;
  return lastDay;
}

/** The YYYY-MM-DD date of a day number, the inverse of dayNumber (H. Hinnant's civil_from_days). */
export function dateOf(day: number): string {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** The last date dayNumber read, its day number and its month (ParsedTrade.month). */
let lastDate = "";
let lastDay = 0;
let lastMonth = 0;
