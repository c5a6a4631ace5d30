/** The calendar dates the API refuses and accepts, apart from the fixture so that a suite with no
 * database or workerd (test/api/dates.test.ts, in `npm run test:unit`) can import them. */

/**
 * Dates every route and page that takes dates must refuse with 400: year 0000 (which PostgreSQL's
 * `date` does not have), days that do not exist (leap years of every kind, years below 100
 * included, where `Date.UTC` would read 19xx), five-digit years and malformed text.
 */
export const BAD_DATES = [
  "0000-01-01",
  "0000-02-29",
  "0000-12-31",
  "2023-02-29",
  "1900-02-29",
  "0100-02-29",
  "0029-02-29",
  "0001-02-29",
  "9999-12-32",
  "10000-01-01",
  "0001-00-01",
  "0001-01-00",
  "+002024-01-01",
  "-0001-01-01",
  "2024-1-05",
  "２０２４-01-05",
];

/** The edges of what they accept: first and last days, leap days of years below 100 and of 400s. */
export const EDGE_DATES = ["0001-01-01", "0004-02-29", "0099-12-31", "0400-02-29", "2000-02-29", "9999-12-31"];
