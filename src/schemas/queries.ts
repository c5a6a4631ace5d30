/**
 * Query parameters of the trade history and of the corporate actions, per docs/api.md and docs/corporate-actions.md. Parameters the schema
 * does not name are ignored. A repeated parameter counts by its first value, as
 * `URLSearchParams.get` reads it and as the edge cache keys it (resourceKey, src/cache/keys.ts), so a cached and
 * an uncached answer to the same URL never differ.
 */
import { z } from "@hono/zod-openapi";
import { STOCK_CODE_MAX_LENGTH } from "../domain/stock-code";
import { calendarDate } from "./dates";

const firstValue = (value: unknown) => (Array.isArray(value) ? value[0] : value);

function queryParam<T extends z.ZodType>(schema: T) {
  return z.preprocess(firstValue, schema);
}

/**
 * Digits only: "1.5", "1e1", "0x10", " 2" and "-1" are refused rather than read as numbers.
 * Digits make an integer, so only the bounds are checked after, with this message: zod's own
 * integer check would answer a number past 2^53 in its words. The document shows the integer,
 * not the string it arrives as, and its description states the bounds.
 */
function wholeNumber(options: { min: number; max: number; fallback: number; description: string }) {
  const { min, max, fallback, description } = options;
  const message = `must be an integer from ${min} to ${max}`;
  return queryParam(
    z.string().regex(/^\d+$/, message).transform(Number).pipe(z.number().min(min, message).max(max, message)).default(fallback),
  ).openapi({
    type: "integer",
    format: "int32",
    minimum: min,
    maximum: max,
    default: fallback,
    description: `${description}. Digits only, ${message.replace("must be ", "")}; default ${fallback}`,
  });
}

export const MAX_PER_PAGE = 100;
/** Keeps the row offset far inside Postgres' bigint and JavaScript's safe integers. */
const MAX_PAGE = 1_000_000_000;

const date = (description: string) => queryParam(calendarDate(description).optional());

/** A code of letters and digits, typed in any case and compared in the one its column keeps. */
const code = (pattern: RegExp, message: string, oneCase: (code: string) => string) =>
  queryParam(z.string().regex(pattern, message).transform(oneCase).optional());

/** `broker`: a broker code in any case, compared in the lower case the column keeps. */
const broker = (rows: string) =>
  code(/^[A-Za-z0-9]{1,20}$/, "must be a broker code: 1 to 20 letters or digits", (code) => code.toLowerCase()).openapi({
    description: `Broker code, any case: only ${rows} in accounts at that broker`,
    example: "SSI",
    maxLength: 20,
  });

/** A stock code in any case, compared in the upper case codes are kept in (src/domain/stock-code.ts). */
const stockCode = () =>
  code(
    new RegExp(`^[A-Za-z0-9]{1,${STOCK_CODE_MAX_LENGTH}}$`),
    `must be 1 to ${STOCK_CODE_MAX_LENGTH} letters or digits`,
    (code) => code.toUpperCase(),
  );

const DATES = ["start_date", "end_date"];

/**
 * The filters a paginated list of one customer's rows takes: page, per_page, broker, stock code,
 * a `type` among `types`, and a date range on the list's own date (`dated`: what the dates bound).
 */
function listQuery<const T extends readonly [string, ...string[]]>(options: {
  types: T;
  typeOf: string;
  dated: string;
  rows: string;
}) {
  const { types, typeOf, dated, rows } = options;
  return z
    .object({
      page: wholeNumber({ min: 1, max: MAX_PAGE, fallback: 1, description: "Page number; a page past the end is empty" }),
      per_page: wholeNumber({ min: 1, max: MAX_PER_PAGE, fallback: 10, description: "Records per page" }),
      broker: broker(rows),
      stock_code: stockCode().openapi({ description: "Ticker symbol, any case", example: "FPT", maxLength: 10 }),
      type: queryParam(
        z.enum(types, `must be ${types.slice(0, -1).join(", ")} or ${types[types.length - 1]}`).optional(),
      ).openapi({
        description: typeOf,
      }),
      start_date: date(`First ${dated} included (not after end_date)`),
      end_date: date(`Last ${dated} included (not before start_date)`),
    })
    .refine((q) => !q.start_date || !q.end_date || q.start_date <= q.end_date, {
      path: ["start_date"],
      message: "must not be after end_date",
      // Only compare dates that are themselves valid; a bad one already has its own issue.
      when: (payload) => !payload.issues.some((issue) => DATES.includes(String(issue.path?.[0]))),
    });
}

export const HistoryQuery = listQuery({
  types: ["buy", "sell"],
  typeOf: "Transaction type",
  dated: "trade date",
  rows: "trades",
});

export type HistoryQuery = z.infer<typeof HistoryQuery>;

/** GET /api/corporate-actions/{slug}: the history's filters, `type` a kind of action and the dates on `ex_date`. */
export const CorporateActionQuery = listQuery({
  types: ["cash_dividend", "share_dividend"],
  typeOf: "`cash_dividend` (cash paid per share held) or `share_dividend` (shares credited: stock dividend, bonus shares, split)",
  dated: "ex-dividend date (`ex_date`)",
  rows: "actions",
});

export type CorporateActionQuery = z.infer<typeof CorporateActionQuery>;

/** The periods `range` names (docs/performance.md says where each starts; src/db/queries/performance.ts computes it). */
export const PERFORMANCE_RANGES = ["1d", "1w", "1m", "3m", "6m", "ytd", "1y", "3y", "5y", "max"] as const;
export type PerformanceRange = (typeof PERFORMANCE_RANGES)[number];
/** How far apart the chart's points are. */
export const PERFORMANCE_INTERVALS = ["day", "week", "month"] as const;
export type PerformanceInterval = (typeof PERFORMANCE_INTERVALS)[number];

/**
 * GET /api/performance/{slug}: a period named by `range` or starting at `from`, ending at `to`
 * (default: the last point), one broker's accounts or all, the chart's spacing and the code to
 * compare with. `range` and `interval` exactly lowercase, as listed: `1M` is not a range.
 */
export const PerformanceQuery = z
  .object({
    range: queryParam(z.enum(PERFORMANCE_RANGES, `must be one of ${PERFORMANCE_RANGES.join(", ")}`).optional()).openapi({
      description:
        "The period ending at `to`: `1d` since the point before, `1w` 7 days, `1m`..`5y` calendar months or years (clamped to the month's last day), `ytd` since December 31 of the year before, `max` (the default) since the first trade. Not with `from`",
      example: "1y",
    }),
    // No example: `range` has one, and the two together are refused. A client (or a fuzzer)
    // that sends every parameter's example gets a request the service answers.
    from: date("First day of the period (it starts at the end of the day before); not with `range`, not after `to`").openapi({
      example: undefined,
    }),
    to: date("Last day of the period; default the customer's last point (`as_of`)").openapi({ example: "2024-12-31" }),
    broker: broker("the ledger"),
    interval: queryParam(z.enum(PERFORMANCE_INTERVALS, `must be one of ${PERFORMANCE_INTERVALS.join(", ")}`).optional()).openapi({
      description:
        "Spacing of `points`: `day`, `week` (the last point of each Monday-to-Sunday week) or `month`; default by the period's length: up to 400 days `day`, up to 1,461 `week`, else `month`",
      example: "week",
    }),
    benchmark: stockCode().openapi({
      description:
        "The code to compare with, any case: an index or a stock the back office books closes for (VN30, HNXINDEX, FPT); default the service's benchmark (VNINDEX unless configured). The points' dates never depend on it. A code with no close gives null closes and return",
      example: "VN30",
      maxLength: STOCK_CODE_MAX_LENGTH,
    }),
  })
  .refine((q) => !(q.range && q.from), { path: ["from"], message: "must not be given with range" })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    path: ["from"],
    message: "must not be after to",
    when: (payload) => !payload.issues.some((issue) => ["from", "to"].includes(String(issue.path?.[0]))),
  });

export type PerformanceQuery = z.infer<typeof PerformanceQuery>;

/** POST /api/sync: `full` also reconciles what a delta cannot see (docs/sync.md). */
export const SyncQuery = z.object({
  mode: z.enum(["delta", "full"], "must be delta or full").default("delta").openapi({
    description: "`delta` copies what changed since the last run; `full` also compares every row and repairs what differs",
  }),
});
