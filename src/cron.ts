/**
 * Cron Trigger expressions, such as the reconciliation's schedule (SYNC_RECONCILE_CRON): checked
 * when the configuration is read (src/env.ts), and read by the sync's status
 * (src/sync/status.ts) to say when the next complete reconciliation is due and whether it is
 * overdue. It depends on nothing, so both can use it.
 *
 * Cron Triggers run in UTC, with five fields: minute, hour, day of month, month, day of week.
 * Each field is `*`, a value, a range `a-b`, any of them with a step `/n`, or a list of those.
 * Months may be named (JAN–DEC). Days of the week are taken by name only (SUN–SAT): cron
 * dialects disagree on whether 1 is Monday or Sunday, and a schedule read one day off would
 * make the status wrong without anyone noticing. As in every cron, when both day fields are
 * restricted a day matching either one fires. Anything else (L, W, #, six fields) is refused
 * when the configuration is read, never guessed.
 */

export interface CronSchedule {
  expression: string;
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  days: ReadonlySet<number>;
  months: ReadonlySet<number>;
  weekdays: ReadonlySet<number>;
  /** True when the field is not `*`: cron's rule for the two day fields depends on it. */
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
}

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const WEEKDAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

interface Field {
  name: string;
  min: number;
  max: number;
  /** Names standing for min, min + 1, ... */
  names?: string[];
  /** When numbers are refused (days of the week), why. */
  namesOnly?: string;
}

const FIELDS: Field[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: MONTHS },
  { name: "day of week", min: 0, max: 6, names: WEEKDAYS, namesOnly: "days of the week are written SUN to SAT" },
];

export class CronError extends Error {
  override name = "CronError";
}

function value(field: Field, token: string): number {
  const named = field.names?.indexOf(token.toUpperCase()) ?? -1;
  if (named >= 0) return field.min + named;
  if (field.namesOnly) throw new CronError(`${field.name} "${token}": ${field.namesOnly}`);
  if (!/^\d{1,2}$/.test(token)) throw new CronError(`${field.name} "${token}" is not a number`);
  const n = Number(token);
  if (n < field.min || n > field.max) throw new CronError(`${field.name} ${n} is outside ${field.min}-${field.max}`);
  return n;
}

function parseField(field: Field, text: string): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(",")) {
    const [range, stepText, extra] = part.split("/");
    if (extra !== undefined || range === undefined || range === "")
      throw new CronError(`${field.name} "${part}" is not understood`);
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1 || !/^\d+$/.test(stepText ?? "1"))
      throw new CronError(`${field.name} step "${stepText}" is not a positive number`);
    let [from, to] = [field.min, field.max];
    if (range !== "*") {
      const [a, b, more] = range.split("-");
      if (more !== undefined || a === undefined || a === "") throw new CronError(`${field.name} "${range}" is not understood`);
      from = value(field, a);
      to = b === undefined ? (stepText === undefined ? from : field.max) : value(field, b);
      if (to < from) throw new CronError(`${field.name} range "${range}" runs backwards`);
    }
    for (let n = from; n <= to; n += step) values.add(n);
  }
  return values;
}

/** Reads a five-field expression; throws CronError saying what is wrong. */
export function parseCron(expression: string): CronSchedule {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) throw new CronError(`"${expression}" has ${parts.length} fields, not 5`);
  const [minutes, hours, days, months, weekdays] = FIELDS.map((f, i) => parseField(f, parts[i]!));
  return {
    expression,
    minutes: minutes!,
    hours: hours!,
    days: days!,
    months: months!,
    weekdays: weekdays!,
    daysRestricted: parts[2] !== "*",
    weekdaysRestricted: parts[4] !== "*",
  };
}

function dayMatches(s: CronSchedule, date: Date): boolean {
  if (!s.months.has(date.getUTCMonth() + 1)) return false;
  const byDay = s.days.has(date.getUTCDate());
  const byWeekday = s.weekdays.has(date.getUTCDay());
  if (s.daysRestricted && s.weekdaysRestricted) return byDay || byWeekday;
  return byDay && byWeekday;
}

const DAY_MS = 86_400_000;
/** Far enough for any expression that can fire at all (29 February comes within 8 years). */
const SEARCH_DAYS = 366 * 8 + 2;

/** The first time the schedule fires strictly after `after`, or null when it never does (31 FEB). */
export function nextFire(s: CronSchedule, after: Date): Date | null {
  const start = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate());
  const hours = [...s.hours].sort((a, b) => a - b);
  const minutes = [...s.minutes].sort((a, b) => a - b);
  for (let d = 0; d < SEARCH_DAYS; d++) {
    const day = new Date(start + d * DAY_MS);
    if (!dayMatches(s, day)) continue;
    for (const h of hours)
      for (const m of minutes) {
        const at = start + d * DAY_MS + (h * 60 + m) * 60_000;
        if (at > after.getTime()) return new Date(at);
      }
  }
  return null;
}
