import { describe, expect, it } from "vitest";
import { div, divInt, fromInt, parseDecimal, toNumber } from "../../src/domain/decimal";

describe("decimal", () => {
  it("parses Postgres numeric text exactly, signs and short fractions included", () => {
    expect(parseDecimal("20000000.0000")).toBe(fromInt(20_000_000));
    expect(parseDecimal("0.1") + parseDecimal("0.2")).toBe(parseDecimal("0.3"));
    expect(parseDecimal("-1.005")).toBe(-parseDecimal("1.005"));
    expect(parseDecimal("7")).toBe(fromInt(7));
    expect(() => parseDecimal("1.2.3")).toThrow();
    expect(() => parseDecimal("1e5")).toThrow();
    expect(() => parseDecimal("abc")).toThrow();
  });

  it("sums 0.1 and 0.2 to exactly 0.3, where floats give 0.30000000000000004", () => {
    expect(toNumber(parseDecimal("0.1") + parseDecimal("0.2"), 4)).toBe(0.3);
  });

  it("rounds half away from zero on both signs, where floats round -1.005 to -1", () => {
    // (-1.005).toFixed(2) is "-1.00" and Math.round(-1.005 * 100) / 100 is -1: both are wrong.
    expect(toNumber(parseDecimal("-1.005"), 2)).toBe(-1.01);
    expect(toNumber(parseDecimal("1.005"), 2)).toBe(1.01);
    expect(toNumber(parseDecimal("-1.0049"), 2)).toBe(-1);
    expect(toNumber(parseDecimal("2.5"), 0)).toBe(3);
    expect(toNumber(parseDecimal("-2.5"), 0)).toBe(-3);
    expect(toNumber(parseDecimal("0.00005"), 4)).toBe(0.0001);
  });

  it("never yields -0", () => {
    expect(Object.is(toNumber(parseDecimal("-0.004"), 2), 0)).toBe(true);
    expect(Object.is(toNumber(parseDecimal("-0.0000"), 2), 0)).toBe(true);
  });

  it("divides with half-away-from-zero rounding at the 18th place", () => {
    // 1/3 = 0.333…3|33…: rounds down; 2/3 = 0.666…6|66…: rounds up.
    expect(divInt(fromInt(1), 3)).toBe(333_333_333_333_333_333n);
    expect(divInt(fromInt(2), 3)).toBe(666_666_666_666_666_667n);
    expect(divInt(fromInt(-2), 3)).toBe(-666_666_666_666_666_667n);
    expect(toNumber(div(parseDecimal("3443400"), parseDecimal("1066700.375")), 4)).toBe(3.2281);
  });

  it("keeps large money exact beyond 2^53", () => {
    // 10^16 - 0.0001 cannot be held by a double; the sum of two stays exact as a decimal.
    const big = parseDecimal("9999999999999999.9999");
    expect(big + big).toBe(parseDecimal("19999999999999999.9998"));
  });
});
