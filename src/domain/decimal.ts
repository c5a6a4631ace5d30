/**
 * Decimal: a number the API writes with the exact decimal digits of its value (docs/api.md).
 *
 * Every money figure the service serves is a Decimal: prices and amounts read from numeric(20,4)
 * columns, and the figures the domain rounds from exact rationals. A JSON number is text, and a
 * double holds about 16 significant digits, so `9999999999999999.9999` stored exactly would be
 * written `10000000000000000` if it passed through a JS number. A Decimal never does: it keeps
 * its value as text, and JSON.stringify (Hono's c.json, the stored metrics) writes that text as a
 * JSON number through `JSON.rawJSON`.
 *
 * The text is the shortest exact decimal: no exponent (a market value can pass 10^21, where JS
 * numbers switch to `1e+21`), no trailing zeros in the fraction, no leading zeros, and `0`, never
 * `-0`. Two Decimals are equal exactly when their texts are.
 *
 * New money fields use it too: a Decimal in the TypeScript types, `money()` in the response
 * schemas (src/schemas/decimal.ts), which the OpenAPI document still shows as a `number`.
 */

import { roundDiv } from "./units";

/** Any decimal text: Postgres numeric output, JSON number text, with or without an exponent. */
const NUMBER = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d{1,4}))?$/;

declare global {
  interface JSON {
    /** A value JSON.stringify writes as this text, unquoted (a JSON primitive's text). */
    rawJSON(text: string): unknown;
  }
}

export class Decimal {
  /** The shortest exact decimal text of the value. */
  readonly text: string;

  private constructor(text: string) {
    this.text = text;
  }

  static readonly ZERO = new Decimal("0");

  /** The value of any decimal text ("1234.5000", "-0.0000", "1e+21"), exactly. Throws on anything else. */
  static parse(text: string): Decimal {
    return new Decimal(shortestDecimal(text));
  }

  /** `scaled / 10^places`, exactly: the domain's rounded integers (1234n, 2) → 12.34. */
  static fromScaled(scaled: bigint, places: number): Decimal {
    if (scaled === 0n) return Decimal.ZERO;
    const negative = scaled < 0n;
    const digits = (negative ? -scaled : scaled).toString().padStart(places + 1, "0");
    const cut = digits.length - places;
    const fraction = digits.slice(cut).replace(/0+$/, "");
    return new Decimal(`${negative ? "-" : ""}${digits.slice(0, cut)}${fraction ? `.${fraction}` : ""}`);
  }

  /** An integer or a short decimal a JS number holds exactly (counts, constants): 0, 12.5. */
  static of(value: number): Decimal {
    if (!Number.isFinite(value)) throw new RangeError(`Not a finite number: ${value}`);
    return Decimal.parse(String(value));
  }

  /**
   * What JSON.stringify writes: the exact text, as a JSON number. The declared type is what a
   * reader of the JSON gets, a number (Hono's typed client and the route types read it so); at
   * run time it is the raw JSON value that carries the text.
   */
  toJSON(): number {
    return JSON.rawJSON(this.text) as number;
  }

  toString(): string {
    return this.text;
  }

  /** The nearest double: for drawing (chart scales, bar widths), never for a figure shown. */
  toNumber(): number {
    return Number(this.text);
  }

  /** -1, 0 or 1. */
  sign(): -1 | 0 | 1 {
    return this.text === "0" ? 0 : this.text.startsWith("-") ? -1 : 1;
  }

  /** The exact sum. */
  plus(other: Decimal): Decimal {
    const a = scaledOf(this);
    const b = scaledOf(other);
    const places = Math.max(a.places, b.places);
    return Decimal.fromScaled(a.scaled * 10n ** BigInt(places - a.places) + b.scaled * 10n ** BigInt(places - b.places), places);
  }

  /** The exact sum of `values` (0 for none). */
  static sum(values: readonly Decimal[]): Decimal {
    return values.reduce((total, v) => total.plus(v), Decimal.ZERO);
  }

  /** Negative, zero or positive as a < b, a = b, a > b, exactly. */
  static compare(a: Decimal, b: Decimal): number {
    return a.minus(b).sign();
  }

  /** The exact difference. */
  minus(other: Decimal): Decimal {
    return this.plus(other.negated());
  }

  /** The value rounded to `places` decimals, half away from zero: the service's one rounding rule. */
  rounded(places: number): Decimal {
    const { scaled, places: has } = scaledOf(this);
    if (has <= places) return this;
    return Decimal.fromScaled(roundDiv(scaled, 10n ** BigInt(has - places)), places);
  }

  negated(): Decimal {
    if (this.text === "0") return this;
    return new Decimal(this.text.startsWith("-") ? this.text.slice(1) : `-${this.text}`);
  }

  /** `this / total` as a double, for shares of a whole (allocation bars); 0 when total is 0. */
  ratioTo(total: Decimal): number {
    return total.sign() === 0 ? 0 : this.toNumber() / total.toNumber();
  }
}

/** The text of `value` as an integer count of 10^-places, exactly. */
function scaledOf(value: Decimal): { scaled: bigint; places: number } {
  const dot = value.text.indexOf(".");
  if (dot === -1) return { scaled: BigInt(value.text), places: 0 };
  return { scaled: BigInt(value.text.slice(0, dot) + value.text.slice(dot + 1)), places: value.text.length - dot - 1 };
}

/**
 * The shortest exact decimal text of a decimal number's text: the exponent applied, leading
 * zeros of the integer part and trailing zeros of the fraction dropped, and no sign on zero.
 * Exponents are capped at 4 digits: no figure of this service comes near, and an unbounded one
 * would ask for unbounded text.
 */
export function shortestDecimal(text: string): string {
  const m = NUMBER.exec(text);
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = m ?? [];
  if (!m || (whole === "" && fraction === "")) throw new SyntaxError(`Not a decimal number: ${JSON.stringify(text)}`);
  let digits = whole + fraction;
  let point = whole.length + Number(exponent);
  if (point < 0) {
    digits = "0".repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += "0".repeat(point - digits.length);
  const integer = digits.slice(0, point).replace(/^0+/, "") || "0";
  const decimals = digits.slice(point).replace(/0+$/, "");
  const body = decimals ? `${integer}.${decimals}` : integer;
  return body === "0" || sign !== "-" ? body : `-${body}`;
}
