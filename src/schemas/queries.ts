/**
 * Query parameters of the trade history and of the corporate actions, per README.md "Endpoints". Parameters the schema
 * does not name are ignored. A repeated parameter counts by its first value, as
 * `URLSearchParams.get` reads it and as the edge cache keys it (src/cache.ts), so a cached and
 * an uncached answer to the same URL never differ.
 */
import { z } from "@hono/zod-openapi";
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
      broker: code(/^[A-Za-z0-9]{1,20}$/, "must be a broker code: 1 to 20 letters or digits", (code) =>
        code.toLowerCase(),
      ).openapi({
        description: `Broker code, any case: only ${rows} in accounts at that broker`,
        example: "SSI",
        maxLength: 20,
      }),
      stock_code: code(/^[A-Za-z0-9]{1,10}$/, "must be 1 to 10 letters or digits", (code) => code.toUpperCase()).openapi({
        description: "Ticker symbol, any case",
        example: "FPT",
        maxLength: 10,
      }),
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

/** POST /api/sync: `full` also reconciles what a delta cannot see (README.md "The sync"). */
export const SyncQuery = z.object({
  mode: z.enum(["delta", "full"], "must be delta or full").default("delta").openapi({
    description: "`delta` copies what changed since the last run; `full` also compares every row and repairs what differs",
  }),
});
