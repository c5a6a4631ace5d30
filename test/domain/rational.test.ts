/**
 * The performance figures' fractions (src/domain/rational.ts) reduce as they go: on operands in
 * lowest terms, each sum, difference, product and quotient must be the exact value in lowest
 * terms, denominator positive, as cross-multiplying and reducing the whole result gives it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Fraction } from "../../src/domain/exact";
import { add, div, fraction, mul, sub } from "../../src/domain/rational";
import { runs } from "../support/runs";

const SEED = 20261127;

/** What the operations must equal: the whole result reduced by one gcd. */
const naive = {
  add: (a: Fraction, b: Fraction) => fraction(a.num * b.den + b.num * a.den, a.den * b.den),
  sub: (a: Fraction, b: Fraction) => fraction(a.num * b.den - b.num * a.den, a.den * b.den),
  mul: (a: Fraction, b: Fraction) => fraction(a.num * b.num, a.den * b.den),
  div: (a: Fraction, b: Fraction) => fraction(a.num * b.den, a.den * b.num),
};

// Small factors shared often (so the denominators have common parts), and long ones.
const part = fc.oneof(fc.constantFrom(1n, 2n, 3n, 6n, 10n, 12n, 10_000n), fc.bigInt({ min: 1n, max: 10n ** 30n }));
const reduced = fc
  .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), part, part)
  .map(([num, d1, d2]) => fraction(num * d1, d1 * d2));

describe("rational", () => {
  it("adds, subtracts, multiplies and divides fractions in lowest terms to the exact value in lowest terms", () => {
    fc.assert(
      fc.property(reduced, reduced, (a, b) => {
        expect(add(a, b)).toEqual(naive.add(a, b));
        expect(sub(a, b)).toEqual(naive.sub(a, b));
        expect(mul(a, b)).toEqual(naive.mul(a, b));
        if (b.num !== 0n) expect(div(a, b)).toEqual(naive.div(a, b));
      }),
      { seed: SEED, numRuns: runs(2000) },
    );
  });

  it("gives 0 as 0/1 and keeps the sign on the numerator", () => {
    expect(add({ num: 1n, den: 6n }, { num: -1n, den: 6n })).toEqual({ num: 0n, den: 1n });
    expect(add({ num: 1n, den: 4n }, { num: -3n, den: 12n })).toEqual({ num: 0n, den: 1n });
    expect(mul({ num: 0n, den: 1n }, { num: 5n, den: 7n })).toEqual({ num: 0n, den: 1n });
    expect(div({ num: 3n, den: 4n }, { num: -9n, den: 8n })).toEqual({ num: -2n, den: 3n });
  });
});
