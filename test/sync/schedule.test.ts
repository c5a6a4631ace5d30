/**
 * The reconciliation's schedule as the status reads it (src/cron.ts, over croner): the next time a
 * Cron Trigger expression fires, against a reference that tries every minute.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CronError, nextFire, parseCron } from "../../src/cron";
import { runs } from "../support/runs";

const WEEKDAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

interface Fields {
  minutes: number[];
  hours: number[];
  days: number[] | null;
  months: number[] | null;
  weekdays: number[] | null;
}

/** The expression for the fields (each a list, or * for null), written as a user would. */
const render = (f: Fields) =>
  [
    f.minutes.join(","),
    f.hours.join(","),
    f.days ? f.days.join(",") : "*",
    f.months ? f.months.join(",") : "*",
    f.weekdays ? f.weekdays.map((d) => WEEKDAYS[d]).join(",") : "*",
  ].join(" ");

/** Cron's rule, minute by minute: both day fields restricted means either may match. */
function matches(f: Fields, t: Date): boolean {
  if (!f.minutes.includes(t.getUTCMinutes()) || !f.hours.includes(t.getUTCHours())) return false;
  if (f.months && !f.months.includes(t.getUTCMonth() + 1)) return false;
  const day = !f.days || f.days.includes(t.getUTCDate());
  const weekday = !f.weekdays || f.weekdays.includes(t.getUTCDay());
  return f.days && f.weekdays ? day || weekday : day && weekday;
}

const MINUTE = 60_000;
const HORIZON_MINUTES = 70 * 24 * 60;

const list = (min: number, max: number, most: number) =>
  fc.uniqueArray(fc.integer({ min, max }), { minLength: 1, maxLength: most }).map((v) => v.sort((a, b) => a - b));
const fields = fc.record({
  minutes: list(0, 59, 3),
  hours: list(0, 23, 3),
  days: fc.option(list(1, 31, 3), { nil: null }),
  months: fc.option(list(1, 12, 4), { nil: null }),
  weekdays: fc.option(list(0, 6, 3), { nil: null }),
});

describe("the reconciliation's schedule", () => {
  it("fires next where a minute-by-minute search first finds a match", () => {
    fc.assert(
      fc.property(fields, fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2030, 0, 1) }), (f, at) => {
        const after = new Date(at);
        const got = nextFire(parseCron(render(f)), after);
        const first = Math.floor(at / MINUTE) * MINUTE + MINUTE;
        for (let m = 0; m < HORIZON_MINUTES; m++) {
          const t = new Date(first + m * MINUTE);
          if (matches(f, t)) {
            expect(got?.toISOString()).toBe(t.toISOString());
            return;
          }
        }
        // Nothing within the horizon: whatever it found lies beyond it.
        if (got) expect(got.getTime()).toBeGreaterThanOrEqual(first + HORIZON_MINUTES * MINUTE);
      }),
      { numRuns: runs(150) },
    );
  });

  it("reads ranges, steps and names", () => {
    // Every 20 minutes of 09:00, 13:00 and 17:00, weekdays of January to March: from late
    // November, Friday 1 January 2027 first, then Monday the 4th.
    const s = parseCron("*/20 9-17/4 * JAN-MAR MON-FRI");
    const fires: string[] = [];
    for (let at = new Date("2026-11-25T00:00:00Z"); fires.length < 10; ) {
      at = nextFire(s, at)!;
      fires.push(at.toISOString());
    }
    expect(fires).toEqual([
      ...["09:00", "09:20", "09:40", "13:00", "13:20", "13:40", "17:00", "17:20", "17:40"].map((t) => `2027-01-01T${t}:00.000Z`),
      "2027-01-04T09:00:00.000Z",
    ]);
    // 19:00 UTC every day: after 19:00 today, tomorrow's.
    const nightly = parseCron("0 19 * * *");
    expect(nextFire(nightly, new Date("2026-11-25T18:59:59.999Z"))?.toISOString()).toBe("2026-11-25T19:00:00.000Z");
    expect(nextFire(nightly, new Date("2026-11-25T19:00:00.000Z"))?.toISOString()).toBe("2026-11-26T19:00:00.000Z");
    expect(nextFire(parseCron("0 0 31 2 *"), new Date("2026-01-01T00:00:00Z"))).toBeNull();
  });

  it.each([
    ["0 19 * *", '"0 19 * *" has 4 fields, not 5'],
    ["0 0 19 * * *", '"0 0 19 * * *" has 6 fields, not 5'],
    ["60 * * * *", '"60 * * * *": Invalid value for minute: 60'],
    ["0 19 * * 1", 'day of week "1": days of the week are written SUN to SAT'],
    ["0 19 * * MON#2", 'day of week "MON#2": days of the week are written SUN to SAT'],
    ["0 19 L * *", 'day of month "L": only numbers, ranges, steps and lists are read'],
    ["0 19 ? * MON", 'day of month "?": only numbers, ranges, steps and lists are read'],
    ["0 10-2 * * *", `"0 10-2 * * *": From value is larger than to value: '10-2'`],
    ["*/0 * * * *", '"*/0 * * * *": Syntax error, illegal stepping: 0'],
  ])("refuses %s: %s", (expression, message) => {
    expect(() => parseCron(expression)).toThrow(new CronError(message));
  });
});
