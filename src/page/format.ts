/**
 * How figures read to a person: money in whole đồng with the locale's separators, as Vietnamese
 * brokers print it (the API keeps its exact digits, and so does each figure's `<data value>`),
 * per-share prices as stored, dates dd/MM/yyyy in Vietnamese, percentages, counts. Formatters
 * are built once per language, since Intl construction costs more than formatting.
 */
import type { Decimal } from "../domain/decimal";
import { type Lang, MESSAGES } from "./i18n";

/**
 * Exact figures are formatted from their decimal text, which Intl.NumberFormat reads as an exact
 * decimal (not through a double), so no digit is lost to a double on the way.
 */
export interface Format {
  /**
   * An amount in whole đồng, rounded half away from zero from the exact figure (Decimal.rounded,
   * the service's one rounding rule), so -0.4 shows as 0, never as -0.
   */
  money(value: Decimal): string;
  /** A per-share price as stored, unrounded (a close, an average cost, a trade's price): up to the 4 decimals the back office keeps. */
  price(value: Decimal): string;
  /** Short, for chart axes: "1,2 Tr ₫". */
  compactMoney(value: number): string;
  count(value: number): string;
  /** A fraction as a percentage: 0.6432 → "64,32%". */
  percent(value: number): string;
  /** Up to 4 decimals, as the API rounds ratios. */
  ratio(value: Decimal): string;
  /** A return, from the API's exact rate: 0.0531 → "+5,31%", with its sign and 2 decimals. */
  rate(value: Decimal): string;
  /** Short, for chart axes: 0.0531 → "+5,3%". */
  compactRate(value: number): string;
  /** Up to 2 decimals, as the API rounds average days. */
  days(value: number): string;
  /** YYYY-MM-DD → dd/MM/yyyy in Vietnamese, "10 Feb 2024" in English. */
  date(iso: string): string;
  /** YYYY-MM → "02/2024" in Vietnamese, "Feb 2024" in English. */
  month(yyyyMm: string): string;
  /** An instant (ISO 8601) as the time and date in Vietnam: "14:05 06/12/2026", "14:05 6 Dec 2026". */
  instant(iso: string): string;
}

/** A Decimal's text as Intl reads it: a string numeric literal, formatted without rounding through a double. */
const exact = (value: Decimal) => value.text as Intl.StringNumericLiteral;

const formats = new Map<Lang, Format>();

export function formatFor(lang: Lang): Format {
  let format = formats.get(lang);
  if (!format) formats.set(lang, (format = build(lang)));
  return format;
}

function build(lang: Lang): Format {
  const locale = MESSAGES[lang].locale;
  const money = new Intl.NumberFormat(locale, {
    style: "currency",
    currency: "VND",
    maximumFractionDigits: 0,
  });
  const price = new Intl.NumberFormat(locale, {
    style: "currency",
    currency: "VND",
    minimumFractionDigits: 0,
    maximumFractionDigits: 4,
  });
  const compact = new Intl.NumberFormat(locale, {
    style: "currency",
    currency: "VND",
    notation: "compact",
    // "−120 Tr ₫", not "−120,3 Tr ₫": an axis label fits its margin.
    maximumSignificantDigits: 2,
  });
  const count = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 });
  const ratio = new Intl.NumberFormat(locale, { maximumFractionDigits: 4 });
  const rate = new Intl.NumberFormat(locale, {
    style: "percent",
    signDisplay: "exceptZero",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  const compactRate = new Intl.NumberFormat(locale, { style: "percent", signDisplay: "exceptZero", maximumFractionDigits: 1 });
  const days = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  // Dates are calendar days, not instants: format them in UTC so no time zone moves them.
  const date = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  const month = new Intl.DateTimeFormat(locale, { month: "short", year: "numeric", timeZone: "UTC" });
  const utc = (iso: string) => new Date(`${iso}T00:00:00Z`);

  return {
    money: (v) => money.format(exact(v.rounded(0))),
    price: (v) => price.format(exact(v)),
    compactMoney: (v) => compact.format(v),
    count: (v) => count.format(v),
    percent: (v) => percent.format(v),
    ratio: (v) => ratio.format(exact(v)),
    rate: (v) => rate.format(exact(v)),
    compactRate: (v) => compactRate.format(v),
    days: (v) => days.format(v),
    date: lang === "vi" ? (iso) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : (iso) => date.format(utc(iso)),
    instant: (iso) => {
      const local = new Date(new Date(iso).getTime() + 7 * 3_600_000).toISOString();
      const day =
        lang === "vi" ? `${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)}` : date.format(utc(local.slice(0, 10)));
      return `${local.slice(11, 16)} ${day}`;
    },
    month: lang === "vi" ? (m) => `${m.slice(5, 7)}/${m.slice(0, 4)}` : (m) => month.format(utc(`${m}-01`)),
  };
}
