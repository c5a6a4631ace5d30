/**
 * Plain exact fractions for the reference implementation: always reduced, denominator > 0.
 * Written for clarity, not speed.
 */
import { Decimal } from "../../src/domain/decimal";

export class Fraction {
  readonly num: bigint;
  readonly den: bigint;

  constructor(num: bigint, den = 1n) {
    if (den === 0n) throw new RangeError("zero denominator");
    const sign = den < 0n ? -1n : 1n;
    const g = gcd(num < 0n ? -num : num, den < 0n ? -den : den) || 1n;
    this.num = (sign * num) / g;
    this.den = (sign * den) / g;
  }

  add(o: Fraction): Fraction {
    return new Fraction(this.num * o.den + o.num * this.den, this.den * o.den);
  }
  sub(o: Fraction): Fraction {
    return this.add(new Fraction(-o.num, o.den));
  }
  mul(o: Fraction): Fraction {
    return new Fraction(this.num * o.num, this.den * o.den);
  }
  div(o: Fraction): Fraction {
    return new Fraction(this.num * o.den, this.den * o.num);
  }
  compare(o: Fraction): number {
    const d = this.num * o.den - o.num * this.den;
    return d > 0n ? 1 : d < 0n ? -1 : 0;
  }
  sign(): number {
    return this.num > 0n ? 1 : this.num < 0n ? -1 : 0;
  }
  toString(): string {
    return this.den === 1n ? `${this.num}` : `${this.num}/${this.den}`;
  }

  /** The JSON number of this value rounded half away from zero to `places` decimals. */
  toRoundedNumber(places: number): number {
    return Number(this.toRoundedText(places));
  }

  /** Rounded as toRoundedNumber, kept exact: what the API must write. */
  toRoundedDecimal(places: number): Decimal {
    return Decimal.parse(this.toRoundedText(places));
  }

  private toRoundedText(places: number): string {
    const scaled = this.num * 10n ** BigInt(places);
    const abs = scaled < 0n ? -scaled : scaled;
    let q = abs / this.den;
    if (2n * (abs - q * this.den) >= this.den) q += 1n; // half away from zero
    if (q === 0n) return "0";
    const digits = q.toString().padStart(places + 1, "0");
    const cut = digits.length - places;
    const text = places === 0 ? digits : `${digits.slice(0, cut)}.${digits.slice(cut)}`;
    return (scaled < 0n ? "-" : "") + text;
  }
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** A numeric(20,4) string as an exact fraction of đồng. */
export function money(text: string): Fraction {
  const [int = "0", frac = ""] = text.replace("-", "").split(".");
  const value = new Fraction(BigInt(int + frac.padEnd(4, "0")), 10_000n);
  return text.startsWith("-") ? new Fraction(-value.num, value.den) : value;
}
