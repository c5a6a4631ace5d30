/**
 * Decimal (src/domain/decimal.ts): the text the API writes for an exact figure, checked against
 * a plain BigInt reference on any value and any way of writing it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Decimal, shortestDecimal } from "../../src/domain/decimal";

/** The reference: `units / 10^places` written the shortest exact way, by BigInt arithmetic alone. */
function reference(units: bigint, places: number): string {
  while (places > 0 && units % 10n === 0n) {
    units /= 10n;
    places--;
  }
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(places + 1, "0");
  const whole = digits.slice(0, digits.length - places);
  const text = places ? `${whole}.${digits.slice(digits.length - places)}` : whole;
  return negative ? `-${text}` : text;
}

/** A value: units of 10^-places, from tiny to well past 10^21 and 2^53. */
const value = fc.record({
  units: fc.oneof(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: -1000n, max: 1000n })),
  places: fc.integer({ min: 0, max: 8 }),
});

/** Ways one value can be written: padded with zeros, with an exponent, with a sign on zero. */
function writings(units: bigint, places: number): string[] {
  const negative = units < 0n;
  const sign = negative ? "-" : "";
  const digits = (negative ? -units : units).toString();
  const padded = digits.padStart(places + 1, "0");
  const plain = places ? `${padded.slice(0, padded.length - places)}.${padded.slice(padded.length - places)}` : padded;
  return [
    `${sign}${plain}`,
    `${sign}${plain}${places ? "" : "."}000`,
    `${sign}00${plain}`,
    `${sign}${digits}e-${places}`,
    `${sign}${digits}0E-${places + 1}`,
    `${sign}0.${digits}e${digits.length - places >= 0 ? "+" : ""}${digits.length - places}`,
  ];
}

describe("Decimal", () => {
  it("writes the shortest exact decimal of every way a value is written", () => {
    fc.assert(
      fc.property(value, ({ units, places }) => {
        const expected = reference(units, places);
        for (const text of writings(units, places))
          expect({ text, is: Decimal.parse(text).text }).toEqual({ text, is: expected });
        expect(Decimal.fromScaled(units, places).text).toBe(expected);
      }),
    );
  });

  it("is written into JSON as a number with exactly those digits, never an exponent", () => {
    fc.assert(
      fc.property(value, ({ units, places }) => {
        const d = Decimal.fromScaled(units, places);
        expect(JSON.stringify({ v: d, list: [d] })).toBe(
          `{"v":${reference(units, places)},"list":[${reference(units, places)}]}`,
        );
      }),
    );
  });

  it("adds, subtracts and compares exactly", () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        const x = Decimal.fromScaled(a.units, a.places);
        const y = Decimal.fromScaled(b.units, b.places);
        const scale = 8;
        const ax = a.units * 10n ** BigInt(scale - a.places);
        const by = b.units * 10n ** BigInt(scale - b.places);
        expect(x.plus(y).text).toBe(reference(ax + by, scale));
        expect(x.minus(y).text).toBe(reference(ax - by, scale));
        expect(Math.sign(Decimal.compare(x, y))).toBe(ax < by ? -1 : ax > by ? 1 : 0);
        expect(x.sign()).toBe(a.units < 0n ? -1 : a.units > 0n ? 1 : 0);
      }),
    );
  });

  it("keeps the schema's limits and past them, and writes -0 as 0", () => {
    expect(Decimal.parse("9999999999999999.9999").text).toBe("9999999999999999.9999");
    expect(JSON.stringify([Decimal.parse("1234567890123.4567")])).toBe("[1234567890123.4567]");
    expect(JSON.stringify([Decimal.parse("9999999999999999.9999").plus(Decimal.parse("9999999999999999.9999"))])).toBe(
      "[19999999999999999.9998]",
    );
    expect(JSON.stringify([Decimal.parse("1e21"), Decimal.parse("-123456789012345678901234.5")])).toBe(
      "[1000000000000000000000,-123456789012345678901234.5]",
    );
    for (const zero of ["-0", "-0.0000", "0e5", "-0.0e-3", "000"]) expect(Decimal.parse(zero).text).toBe("0");
    expect(JSON.stringify(Decimal.fromScaled(-0n, 2))).toBe("0");
    expect(Decimal.of(12.5).text).toBe("12.5");
    expect(Decimal.parse("100.0000").toNumber()).toBe(100);
  });

  it("refuses what is not a decimal number", () => {
    for (const bad of ["", "-", ".", "e5", "1e", "1.2.3", "abc", "0x10", "1,5", " 1", "Infinity", "NaN", "1e99999"]) {
      expect(() => shortestDecimal(bad), bad).toThrow(SyntaxError);
    }
    expect(() => Decimal.of(Number.NaN)).toThrow(RangeError);
  });
});
