/**
 * The exact money units (units.ts) and the fixed scale's error bound (fixed.ts), each checked
 * on values worked by hand, at the edges numeric(20,4) admits.
 */
import { describe, expect, it } from "vitest";
import { SCALE, decide, decideRatio } from "../../src/domain/fixed";
import { parseUnits, roundDiv, smallUnits, toNumber } from "../../src/domain/units";

const LARGEST = 99_999_999_999_999_999_999n; // 9,999,999,999,999,999.9999 đồng in 10^-4 đồng

describe("parseUnits", () => {
  it("parses Postgres numeric text exactly, signs and short fractions included", () => {
    expect(parseUnits("20000000.0000")).toBe(200_000_000_000n);
    expect(parseUnits("0.1") + parseUnits("0.2")).toBe(parseUnits("0.3"));
    expect(parseUnits("-1.005")).toBe(-10_050n);
    expect(parseUnits("7")).toBe(70_000n);
    expect(parseUnits("0.0001")).toBe(1n);
    expect(parseUnits("-0.0000")).toBe(0n);
  });

  it("keeps the largest values numeric(20,4) admits exact, beyond 2^53", () => {
    expect(parseUnits("9999999999999999.9999")).toBe(LARGEST);
    expect(parseUnits("-9999999999999999.9999")).toBe(-LARGEST);
    expect(parseUnits("9999999999999999.9999") + parseUnits("9999999999999999.9999")).toBe(2n * LARGEST);
    // One unit below 2^53 and one above: a double could not tell the second from its neighbour.
    expect(parseUnits("900719925474.0991")).toBe(2n ** 53n - 1n);
    expect(parseUnits("900719925474.0993")).toBe(2n ** 53n + 1n);
  });

  it("rejects what is not a numeric(20,4) text", () => {
    for (const bad of ["", "1.2.3", "1e5", "abc", "1.23456", "+1", " 1", "1.", ".5", "1,5", "--1"]) {
      expect(() => parseUnits(bad), bad).toThrow(SyntaxError);
    }
  });
});

describe("smallUnits", () => {
  it("reads the usual 4-place form with up to 15 digits as an exact double", () => {
    expect(smallUnits("0.0000")).toBe(0);
    expect(smallUnits("0.0001")).toBe(1);
    expect(smallUnits("20000000.0000")).toBe(200_000_000_000);
    // 15 digits: 10^15 - 1 < 2^50, and three of them still add below 2^53.
    expect(smallUnits("99999999999.9999")).toBe(999_999_999_999_999);
    expect(3 * smallUnits("99999999999.9999")).toBeLessThan(2 ** 53);
  });

  it("leaves everything else to parseUnits", () => {
    // 16 digits, a sign, fewer places, no dot, a stray character: -1, never a wrong value.
    for (const other of [
      "100000000000.0000",
      "9999999999999999.9999",
      "-1.0000",
      "1.005",
      "7",
      "1.00000",
      "12a4.0000",
      "1.0000 ",
    ]) {
      expect(smallUnits(other), other).toBe(-1);
    }
  });

  it("agrees with parseUnits wherever it answers", () => {
    for (const text of ["0.0000", "1.0000", "123.4567", "99999999999.9999", "4503599627.3704"]) {
      expect(BigInt(smallUnits(text))).toBe(parseUnits(text));
    }
  });
});

describe("roundDiv", () => {
  it("rounds half away from zero on both signs", () => {
    expect(roundDiv(5n, 10n)).toBe(1n);
    expect(roundDiv(-5n, 10n)).toBe(-1n);
    expect(roundDiv(4n, 10n)).toBe(0n);
    expect(roundDiv(-4n, 10n)).toBe(0n);
    expect(roundDiv(15n, 10n)).toBe(2n);
    expect(roundDiv(-15n, 10n)).toBe(-2n);
    expect(roundDiv(25n, 10n)).toBe(3n); // not to even
    expect(roundDiv(-25n, 10n)).toBe(-3n);
    // -1.005 đồng to cents: -100.5 -> -101, where floats give -1.00.
    expect(roundDiv(parseUnits("-1.005"), 100n)).toBe(-101n);
    expect(roundDiv(parseUnits("-1.0049"), 100n)).toBe(-100n);
    // Just either side of the half: 1/2 - 1/10^20 and 1/2 + 1/10^20.
    expect(roundDiv(5n * 10n ** 19n - 1n, 10n ** 20n)).toBe(0n);
    expect(roundDiv(5n * 10n ** 19n + 1n, 10n ** 20n)).toBe(1n);
    expect(roundDiv(-(5n * 10n ** 19n) + 1n, 10n ** 20n)).toBe(0n);
  });

  it("rounds the largest money to cents", () => {
    // 9,999,999,999,999,999.9999 -> 10,000,000,000,000,000.00
    expect(roundDiv(LARGEST, 100n)).toBe(10n ** 18n);
    expect(roundDiv(-LARGEST, 100n)).toBe(-(10n ** 18n));
    expect(roundDiv(LARGEST - 50n, 100n)).toBe(10n ** 18n - 1n); // ...99.9949 -> ...99.99
  });
});

describe("toNumber", () => {
  it("is the double nearest the decimal, and never -0", () => {
    expect(toNumber(123_456n, 2)).toBe(1234.56);
    expect(toNumber(-1n, 2)).toBe(-0.01);
    expect(toNumber(30n, 2)).toBe(0.3); // not 0.30000000000000004
    expect(toNumber(5n, 4)).toBe(0.0005);
    expect(toNumber(-7n, 0)).toBe(-7);
    expect(Object.is(toNumber(roundDiv(-4n, 100n), 2), 0)).toBe(true);
    expect(toNumber(10n ** 18n, 2)).toBe(1e16);
  });
});

describe("fixed scale", () => {
  it("holds every denominator up to 32 and 10^16 exactly", () => {
    for (let d = 1n; d <= 32n; d++) expect(SCALE % d, String(d)).toBe(0n);
    expect(SCALE % 10n ** 16n).toBe(0n);
    expect(SCALE % 37n).not.toBe(0n);
  });

  it("decides an exact sum (no inexact term) exactly, ties away from zero", () => {
    expect(decide(150n, 0, 1n, 100n)).toBe(2n);
    expect(decide(-150n, 0, 1n, 100n)).toBe(-2n);
    expect(decide(149n, 0, 1n, 100n)).toBe(1n);
    expect(decide(3n, 0, 100n, 2n)).toBe(150n); // 3/2 to 2 places
  });

  it("decides a sum with k inexact terms only when everything within k rounds alike", () => {
    // |t - 140| < 1: t in (139, 141), all round to 1.
    expect(decide(140n, 1, 1n, 100n)).toBe(1n);
    expect(decide(-140n, 1, 1n, 100n)).toBe(-1n);
    // |t - 149| < 1 may be 149.5 or above: undecided, though 149 itself rounds to 1.
    expect(decide(149n, 1, 1n, 100n)).toBeNull();
    expect(decide(150n, 1, 1n, 100n)).toBeNull();
    // The bound widens with k: 145 is safe with 4 inexact terms, not with 5 or 6.
    expect(decide(145n, 4, 1n, 100n)).toBe(1n);
    expect(decide(145n, 5, 1n, 100n)).toBeNull();
    expect(decide(145n, 6, 1n, 100n)).toBeNull();
    expect(decide(-145n, 6, 1n, 100n)).toBeNull();
  });

  it("decides a ratio only when both ends of its interval round alike", () => {
    expect(decideRatio(3n, 0, 2n, 0)).toBe(15_000n); // 1.5 to 4 places
    expect(decideRatio(2n, 0, 3n, 0)).toBe(6_667n); // 0.66666… up
    expect(decideRatio(1n, 0, 20_000n, 0)).toBe(1n); // 0.00005: a tie, away from zero
    // 10^6 ± 1 over 10^6 ± 1: between 0.999998 and 1.000002, all 1.0000.
    expect(decideRatio(1_000_000n, 1, 1_000_000n, 1)).toBe(10_000n);
    // The same with a coarse bound: between 0.98 and 1.02, undecided.
    expect(decideRatio(100n, 1, 100n, 1)).toBeNull();
    // A loss that may be 0 gives no ratio at all.
    expect(decideRatio(1n, 0, 1n, 1)).toBeNull();
    // A win within its bound of 0 is clamped to 0 at the low end: [0, 2/10^6] rounds to 0.
    expect(decideRatio(1n, 1, 10n ** 9n, 0)).toBe(0n);
  });
});
