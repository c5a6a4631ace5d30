/**
 * total_return is rounded once (src/domain/total-return.ts): the stored part (average-cost
 * realized P&L + net dividends) plus the unrealized P&L read with the closes equals the exact
 * sum rounded half away from zero to 2 places, including where two roundings would not.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeMetrics, decideReturnPart, returnPartExact, servedTotalReturn } from "../../src/domain";
import { Decimal } from "../../src/domain/decimal";
import { SCALE } from "../../src/domain/fixed";
import { BOOKS, dividends, edgeBook, realisticBook, withCredits } from "./books";
import { Fraction } from "./fraction";
import { referenceMetrics, referenceReturnPart, referenceTotalReturn } from "./reference";
import { tradeFactory } from "./trades";
import { runs } from "../support/runs";

/** Served total_return of a book for an unrealized P&L in 10^-4 đồng. */
function served(...[trades, credits, cash, unrealized]: Parameters<typeof referenceTotalReturn>): Decimal {
  return servedTotalReturn(computeMetrics(trades, credits, cash).stats.total_return, Decimal.fromScaled(unrealized, 4));
}

/** What the service served before: the rounded stored figure plus the rounded unrealized P&L. */
function twoRoundings(...[trades, credits, cash, unrealized]: Parameters<typeof referenceTotalReturn>): Decimal {
  const { stats } = referenceMetrics(trades, credits, cash);
  return stats.realized_pnl_average_cost.plus(stats.dividends.net).plus(Decimal.fromScaled(unrealized, 4).rounded(2));
}

describe("total_return, rounded once", () => {
  // 3 shares bought for 10 đồng; one sold for `price`: realized price - 10/3, which never ends.
  const oneOfThree = (price: string) => {
    const { buy, sell } = tradeFactory();
    return [buy("2024-01-02", 3, "10.0000"), sell("2024-02-01", 1, price)];
  };
  // 1 share bought for 10 đồng, sold for 10.0046: a realized part of exactly 0.0046.
  const exactly46 = () => {
    const { buy, sell } = tradeFactory();
    return [buy("2024-01-02", 1, "10.0000"), sell("2024-02-01", 1, "10.0046")];
  };

  const cases: Array<[string, ReturnType<typeof oneOfThree>, bigint, string, string]> = [
    // [case, book, unrealized (10^-4 đồng), served, what two roundings gave]
    ["0.0046666… + 0.0004 = 0.0050666…: 0.01, where 0.00 + 0.00 gave 0", oneOfThree("3.3380"), 4n, "0.01", "0"],
    ["-0.0046333… − 0.0004 = -0.0050333…: -0.01, where two roundings gave 0", oneOfThree("3.3287"), -4n, "-0.01", "0"],
    [
      "0.0050666… − 0.0100 = -0.0049333…: 0, where a part cut to 4 places (0.0050) would tie to -0.01",
      oneOfThree("3.3384"),
      -100n,
      "0",
      "0",
    ],
    ["exactly 0.0046 + 0.0004: a tie, away from zero", exactly46(), 4n, "0.01", "0"],
    ["0.0046666… and nothing unrealized", oneOfThree("3.3380"), 0n, "0", "0"],
  ];

  it.each(cases)("%s", (_, trades, unrealized, expected, before) => {
    expect(served(trades, [], [], unrealized).text).toBe(expected);
    expect(referenceTotalReturn(trades, [], [], unrealized).text).toBe(expected);
    expect(twoRoundings(trades, [], [], unrealized).text).toBe(before);
  });

  it("adds net dividends to the stored part exactly, before the one rounding", () => {
    const trades = oneOfThree("3.3380"); // 0.0046666…
    const cash = [{ gross_amount: "1000.0000", tax: "49.9950" }]; // net 950.0050
    // 950.0050 + 0.0046666… = 950.0096666…: stored as the midpoint 950.00965 of its 10^-4 step.
    expect(computeMetrics(trades, [], cash).stats.total_return.text).toBe("950.00965");
    expect(served(trades, [], cash, -46n).text).toBe("950.01"); // 950.0050666…
    expect(served(trades, [], cash, -47n).text).toBe("950"); // 950.0049666…
    expect(twoRoundings(trades, [], cash, -47n).text).toBe("950.01");
  });

  it("stores the part as the exact value on the 10^-4 grid, else its step's midpoint", () => {
    expect(returnPartExact({ num: 46n, den: 1n }).text).toBe("0.0046");
    expect(returnPartExact({ num: 140n, den: 3n }).text).toBe("0.00465"); // 46.666… units
    expect(returnPartExact({ num: -140n, den: 3n }).text).toBe("-0.00465"); // -46.666…: between -47 and -46
    expect(returnPartExact({ num: -1n, den: 3n }).text).toBe("-0.00005");
    expect(returnPartExact({ num: 0n, den: 7n }).text).toBe("0");
    // From the fixed-scale sum: decided only when its error interval stays inside one step.
    expect(decideReturnPart(46n * SCALE, 0)?.text).toBe("0.0046");
    expect(decideReturnPart(46n * SCALE + 1n, 0)?.text).toBe("0.00465");
    expect(decideReturnPart(46n * SCALE + 10n, 3)?.text).toBe("0.00465");
    expect(decideReturnPart(46n * SCALE + 3n, 3)?.text).toBe("0.00465"); // (46 + 0, 46 + 6/SCALE): inside
    expect(decideReturnPart(46n * SCALE + 2n, 3)).toBeNull(); // could be 46 exactly, or below
    expect(decideReturnPart(47n * SCALE - 2n, 3)).toBeNull(); // could be 47 exactly
    expect(decideReturnPart(-46n * SCALE - 10n, 3)?.text).toBe("-0.00465");
  });

  /** A book, and an unrealized P&L that puts the total at or next to a half cent as often as anywhere. */
  const booksWithUnrealized = fc
    .tuple(
      withCredits(fc.oneof(edgeBook, realisticBook)),
      dividends,
      fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }),
      fc.integer({ min: -3, max: 3 }),
      fc.boolean(),
    )
    .map(([[trades, credits], cash, anywhere, nudge, nearTie]) => {
      if (!nearTie) return { trades, credits, cash, unrealized: anywhere };
      // The part's 10^-4 step (exact parts from the reference), and a half cent near `anywhere`.
      const step = floorDiv(scaledAt(referenceMetrics(trades, credits, cash).stats.total_return, 5), 10n);
      const halfCent = (anywhere / 100n) * 100n + 50n;
      return { trades, credits, cash, unrealized: halfCent - step + BigInt(nudge) };
    });

  it("equals the exact sum rounded once, on random books with credits and dividends, near half cents", () => {
    fc.assert(
      fc.property(booksWithUnrealized, ({ trades, credits, cash, unrealized }) => {
        const metrics = computeMetrics(trades, credits, cash);
        const reference = referenceMetrics(trades, credits, cash);
        expect(metrics.stats.total_return).toEqual(reference.stats.total_return);
        expect(servedTotalReturn(metrics.stats.total_return, Decimal.fromScaled(unrealized, 4))).toEqual(
          referenceTotalReturn(trades, credits, cash, unrealized),
        );
      }),
      { numRuns: runs(BOOKS) },
    );
  });

  it("restates the part the same way in the reference", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: 1n, max: 10n ** 12n }), (num, den) => {
        expect(returnPartExact({ num, den })).toEqual(referenceReturnPart(new Fraction(num, den * 10_000n)));
      }),
      { numRuns: runs(BOOKS) },
    );
  });
});

/** `d` as an integer count of 10^-places (d has at most that many places). */
function scaledAt(d: Decimal, places: number): bigint {
  const [whole = "0", fraction = ""] = d.text.replace("-", "").split(".");
  const value = BigInt(whole + fraction.padEnd(places, "0"));
  return d.text.startsWith("-") ? -value : value;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return q * b > a ? q - 1n : q;
}
