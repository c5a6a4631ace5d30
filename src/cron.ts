/**
 * Cron Trigger expressions, such as the reconciliation's schedule (SYNC_RECONCILE_CRON): checked
 * when the configuration is read (src/env.ts), and read by the sync's status
 * (src/sync/status.ts) to say when the next complete reconciliation is due and whether it is
 * overdue. Croner reads the expression and finds the next run; this module only narrows what it
 * accepts to what the status may safely read.
 *
 * Cron Triggers run in UTC, with five fields: minute, hour, day of month, month, day of week.
 * Each field is `*`, a value, a range `a-b`, any of them with a step `/n`, or a list of those.
 * Months may be named (JAN–DEC). Days of the week are taken by name only (SUN–SAT): cron
 * dialects disagree on whether 1 is Monday or Sunday, and a schedule read one day off would
 * make the status wrong without anyone noticing. As in every cron, when both day fields are
 * restricted a day matching either one fires. Anything else (L, W, #, ?, croner's `+`, six or
 * seven fields) is refused when the configuration is read, never guessed.
 */
import { Cron } from "croner";

export interface CronSchedule {
  expression: string;
  cron: Cron;
}

export class CronError extends Error {
  override name = "CronError";
}

/** What each field may hold before croner reads it; the day fields' letters are what is refused. */
const FIELDS = [
  { name: "minute", allowed: /^[\d*,/-]+$/, why: "only numbers, ranges, steps and lists are read" },
  { name: "hour", allowed: /^[\d*,/-]+$/, why: "only numbers, ranges, steps and lists are read" },
  { name: "day of month", allowed: /^[\d*,/-]+$/, why: "only numbers, ranges, steps and lists are read" },
  { name: "month", allowed: /^[\dA-Za-z*,/-]+$/, why: "only numbers, names, ranges, steps and lists are read" },
  {
    name: "day of week",
    allowed: /^(\*|[A-Za-z]{3}(-[A-Za-z]{3})?)(\/\d+)?(,(\*|[A-Za-z]{3}(-[A-Za-z]{3})?)(\/\d+)?)*$/,
    why: "days of the week are written SUN to SAT",
  },
];

/**
 * Croner's options for a Cron Trigger: five fields, in UTC (an offset, so no time zone database
 * is consulted), never scheduled (no callback, paused), and `5/15` read as 5, 20, 35, 50 as cron
 * always has (croner refuses it unless `sloppyRanges`). Both day fields restricted fire on
 * either: croner's default (`domAndDow: false`).
 */
const OPTIONS = { mode: "5-part", utcOffset: 0, paused: true, sloppyRanges: true } as const;

/** Reads a five-field expression; throws CronError saying what is wrong. */
export function parseCron(expression: string): CronSchedule {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) throw new CronError(`"${expression}" has ${parts.length} fields, not 5`);
  FIELDS.forEach((field, i) => {
    if (!field.allowed.test(parts[i]!)) throw new CronError(`${field.name} "${parts[i]}": ${field.why}`);
  });
  try {
    return { expression, cron: new Cron(parts.join(" "), OPTIONS) };
  } catch (err) {
    // Croner throws TypeError or RangeError with "CronPattern: " and what it could not read.
    throw new CronError(`"${expression}": ${String((err as Error).message).replace(/^CronPattern:\s*/, "")}`);
  }
}

/** The first time the schedule fires strictly after `after`, or null when it never does (31 FEB). */
export function nextFire(s: CronSchedule, after: Date): Date | null {
  return s.cron.nextRun(after) ?? null;
}
