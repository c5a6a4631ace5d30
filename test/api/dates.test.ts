/**
 * The calendar date the API takes (src/schemas/dates.ts), against a reference built on
 * `setUTCFullYear`, which, unlike `Date.UTC`, takes years 0 to 99 as written. Generated dates
 * lean on the years a `Date.UTC` check gets wrong (0 to 99), on the range's edges and on
 * February, and include days and months just outside their range.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DATE_MESSAGE, HistoryQuery, isCalendarDate } from "../../src/schemas";
import { BAD_DATES, EDGE_DATES } from "./calendar-dates";
import { runs } from "../support/runs";

const pad = (n: number, width: number) => String(n).padStart(width, "0");
const text = (y: number, m: number, d: number) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;

/** Whether y-m-d is a day of the proleptic Gregorian calendar within 0001-01-01 .. 9999-12-31. */
function reference(y: number, m: number, d: number): boolean {
  if (y < 1 || y > 9999) return false;
  const day = new Date(0);
  day.setUTCFullYear(y, m - 1, d);
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

const year = fc.oneof(
  fc.integer({ min: 0, max: 99 }),
  fc.constantFrom(0, 1, 100, 400, 1900, 2000, 9999, 10000),
  fc.integer({ min: 0, max: 10_000 }),
);
const month = fc.oneof(fc.constant(2), fc.integer({ min: 0, max: 13 }));
const day = fc.oneof(fc.integer({ min: 28, max: 31 }), fc.integer({ min: 0, max: 32 }));

describe("a calendar date", () => {
  it("is exactly a day from 0001-01-01 to 9999-12-31, years 0 to 99 taken as written", () => {
    fc.assert(
      fc.property(year, month, day, (y, m, d) => {
        expect(isCalendarDate(text(y, m, d)), text(y, m, d)).toBe(reference(y, m, d));
      }),
      { numRuns: runs(20_000) },
    );
  });

  it("is what the history query accepts for start_date and end_date, with one message otherwise", () => {
    fc.assert(
      fc.property(year, month, day, fc.constantFrom("start_date", "end_date"), (y, m, d, field) => {
        const result = HistoryQuery.safeParse({ [field]: text(y, m, d) });
        expect(result.success, text(y, m, d)).toBe(reference(y, m, d));
        if (!result.success) {
          expect(result.error.issues.map((i) => ({ path: i.path, message: i.message }))).toEqual([
            { path: [field], message: DATE_MESSAGE },
          ]);
        }
      }),
      { numRuns: runs(5_000) },
    );
  });

  it("refuses the fixed bad dates and takes the fixed edges", () => {
    for (const date of BAD_DATES) expect(isCalendarDate(date), date).toBe(false);
    for (const date of EDGE_DATES) expect(isCalendarDate(date), date).toBe(true);
  });

  it("checks every day of every year 0000 to 9999 like the reference", () => {
    let days = 0;
    for (let y = 0; y <= 9999; y++) {
      for (let m = 1; m <= 12; m++) {
        for (const d of [28, 29, 30, 31]) {
          if (isCalendarDate(text(y, m, d)) !== reference(y, m, d)) expect.fail(text(y, m, d));
          if (isCalendarDate(text(y, m, d))) days++;
        }
      }
    }
    // Days 28 to 31 that exist, per year 0001-9999: a 28th in 12 months, a 29th and a 30th in the
    // 11 months other than February, a 31st in 7; and February 29th in the 2424 leap years.
    expect(days).toBe(9999 * (12 + 11 + 11 + 7) + 2424);
  });
});
