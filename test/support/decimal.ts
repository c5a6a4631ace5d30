/**
 * Decimals (src/domain/decimal.ts) in assertions. A Decimal equals a number when JSON writes
 * both alike: its text is the number's own shortest text. So an expected body written with
 * plain numbers matches the engine's Decimals for every figure a double holds, and fails for a
 * figure it cannot (9999999999999999.9999 is not the number 10000000000000000): those tests
 * compare texts.
 */
import { expect } from "vitest";
import type { JSONParsed } from "hono/utils/types";
import { Decimal } from "../../src/domain/decimal";

/** A value as a JSON reader sees it: Decimals are numbers there. */
export type Wire<T> = JSONParsed<T>;

function decimalEqualsNumber(a: unknown, b: unknown): boolean | undefined {
  if (a instanceof Decimal && typeof b === "number") return a.text === String(b);
  if (b instanceof Decimal && typeof a === "number") return b.text === String(a);
  return undefined;
}

expect.addEqualityTesters([decimalEqualsNumber]);
