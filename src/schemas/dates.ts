/**
 * A calendar date as the API takes it: `YYYY-MM-DD`, a day that exists in the proleptic
 * Gregorian calendar, from 0001-01-01 to 9999-12-31. Year 0000 is refused: PostgreSQL's `date`
 * has no year zero (it counts 1 BC before AD 1), so such a value would fail in SQL instead of here.
 *
 * Checked with whole numbers only, never `Date`: `Date.UTC(y, …)` and `new Date(y, …)` read
 * years 0 to 99 as 1900 to 1999, which would pass 0029-02-29 as a real date because 1929 is not
 * the question asked.
 */
import { z } from "@hono/zod-openapi";

export const FIRST_DATE = "0001-01-01";
export const LAST_DATE = "9999-12-31";

const SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
}

/** True when `text` is `YYYY-MM-DD` and names a day from 0001-01-01 to 9999-12-31. */
export function isCalendarDate(text: string): boolean {
  const parts = SHAPE.exec(text);
  if (!parts) return false;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

export const DATE_MESSAGE = `must be a real date from ${FIRST_DATE} to ${LAST_DATE}, written YYYY-MM-DD`;

/**
 * The document keeps `format: date` (what generated clients map to a date type) and says the
 * range in words and in a pattern a client can check: four digits that are not 0000, a month,
 * a day of at most 31 (the pattern cannot know February; the service does).
 */
export const calendarDate = (description: string) =>
  z
    .string()
    // A format issue, as z.iso.date() raised, not a custom one: a custom issue on a date is the
    // start-after-end check of the history query, which the page words differently.
    .check((payload) => {
      if (!isCalendarDate(payload.value)) {
        payload.issues.push({ code: "invalid_format", format: "date", input: payload.value, message: DATE_MESSAGE });
      }
    })
    .openapi({
      format: "date",
      pattern: "^(?!0000)\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$",
      description: `${description}: a real date from ${FIRST_DATE} to ${LAST_DATE}`,
      example: "2024-01-31",
      maxLength: 10,
    });
