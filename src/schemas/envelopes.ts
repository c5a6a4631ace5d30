/**
 * Response envelopes: `{success: true, data}` (plus `pagination` on the trade history) and the
 * one error envelope of src/errors.ts, with the OpenAPI response objects the routes declare.
 */
import { z } from "@hono/zod-openapi";
import { type ErrorBody, reasonFor } from "../errors";
import { Performance } from "./performance";
import { Analytics, Broker, CorporateAction, Customer, Holding, Pagination, Stats, Transaction } from "./resources";

const succeeded = z.literal(true);

function success<T extends z.ZodType>(data: T) {
  return z.strictObject({ success: succeeded, data });
}

export const CustomerResponse = success(Customer).openapi("CustomerResponse");
export const PortfolioResponse = success(
  z.array(Holding).openapi({ description: "Ordered by stock code, then account" }),
).openapi("PortfolioResponse");
export const TransactionPage = z
  .strictObject({
    success: succeeded,
    data: z.array(Transaction).openapi({ description: "Newest first: trade date descending, then id descending" }),
    pagination: Pagination,
  })
  .openapi("TransactionPage");
export const CorporateActionPage = z
  .strictObject({
    success: succeeded,
    data: z.array(CorporateAction).openapi({ description: "Newest first: ex_date descending, then id descending" }),
    pagination: Pagination,
  })
  .openapi("CorporateActionPage");
export const StatsResponse = success(Stats).openapi("StatsResponse");
export const AnalyticsResponse = success(Analytics).openapi("AnalyticsResponse");
export const AggregateResponse = success(
  z.strictObject({ customer: Customer, portfolio: PortfolioResponse.shape.data, stats: Stats, analytics: Analytics }),
).openapi("AggregateResponse");
export const PerformanceResponse = success(Performance).openapi("PerformanceResponse");
export const BrokersResponse = success(z.array(Broker).openapi({ description: "Ordered by code" })).openapi("BrokersResponse");

const Issue = z
  .strictObject({
    path: z.string().openapi({ description: "The parameter at fault", example: "per_page" }),
    message: z.string().openapi({ example: "must be an integer from 1 to 100" }),
  })
  .openapi("ValidationIssue");

export const ErrorResponse = z
  .strictObject({
    success: z.literal(false),
    error: z.string().openapi({ description: "The HTTP reason phrase", example: "Not Found" }),
    details: z.array(Issue).optional().openapi({ description: "On 400: what is wrong with which parameter" }),
    request_id: z.string().optional().openapi({ description: "On 5xx: quote it when reporting a problem" }),
  })
  // Not "Error": generated clients would declare an `Error` type that hides the built-in one.
  .openapi("ErrorResponse") satisfies z.ZodType<ErrorBody>;

/**
 * Response headers, as documented on each response. Every response carries X-Request-Id; the
 * cached reads add the edge cache's validators (src/cache/serve.ts), a 429 says when to come back.
 */
const header = (description: string, schema: Record<string, unknown> = { type: "string" }, required = false) => ({
  description,
  required,
  schema,
});

const REQUEST_ID = {
  "X-Request-Id": header(
    "This request's id, also in the server's logs; the caller's own when it sent a sane one",
    { type: "string" },
    true,
  ),
};

const CACHE_HEADERS = {
  ETag: header("Validator of this body; send it back in `If-None-Match` to get a 304 while it is current", {
    type: "string",
    example: '"3q2+7w"',
  }),
  "Cache-Control": header("`private, max-age=<seconds left>` on a cached answer, `private, no-store` otherwise", {
    type: "string",
    example: "private, max-age=42",
  }),
  "X-Cache": header("Whether the edge cache answered: HIT, MISS, or STALE (the database is down)", {
    type: "string",
    enum: ["HIT", "MISS", "STALE"],
  }),
  Age: header("Seconds since the edge cache stored this answer", { type: "integer", format: "int32", minimum: 0 }),
};

const RETRY_AFTER = {
  "Retry-After": header(
    "Seconds to wait before asking again",
    { type: "integer", format: "int32", minimum: 1, example: 60 },
    true,
  ),
};

export function jsonResponse<T extends z.ZodType>(description: string, schema: T) {
  return { description, headers: REQUEST_ID, content: { "application/json": { schema } } };
}

export function htmlResponse(description: string) {
  return { description, headers: REQUEST_ID, content: { "text/html": { schema: z.string() } } };
}

/**
 * A read served through the edge cache (src/cache/serve.ts): the 200 with its validators, and the 304
 * a client gets when its `If-None-Match` still matches.
 */
export function cachedResponses<T extends z.ZodType>(description: string, schema: T) {
  return {
    200: { description, headers: { ...REQUEST_ID, ...CACHE_HEADERS }, content: { "application/json": { schema } } },
    304: {
      description: "Not modified: the `If-None-Match` request header still matches the current `ETag`; no body",
      headers: { ...REQUEST_ID, ...CACHE_HEADERS },
    },
  };
}

const ERRORS = {
  400: "A parameter is invalid; `details` says which and why",
  401: "`X-Admin-Key` is missing or wrong",
  404: "Unknown or malformed slug or account id, or no such route",
  409: "A sync is already running",
  429: "Too many unknown slugs or account ids, or wrong admin keys, from this client; wait `Retry-After` seconds",
  500: "Unexpected failure; the body carries `request_id`",
  502: "The source database is unavailable; nothing was changed",
  503: "The database is unavailable; the body carries `request_id`",
} as const;

type ErrorStatus = keyof typeof ERRORS;
type Issue = { path: string; message: string };

function errorExample(status: ErrorStatus, issue?: Issue): ErrorBody {
  if (status === 400) return { success: false, error: reasonFor(400), details: issue ? [issue] : [] };
  if (status >= 500) return { success: false, error: reasonFor(status), request_id: "0d6f5a52-3c59-4bde-9f2a-7c1e8a9b4d21" };
  return { success: false, error: reasonFor(status) };
}

function errorResponse(status: ErrorStatus, issue?: Issue) {
  return {
    description: ERRORS[status],
    headers: status === 429 ? { ...REQUEST_ID, ...RETRY_AFTER } : REQUEST_ID,
    content: { "application/json": { schema: ErrorResponse, example: errorExample(status, issue) } },
  };
}

/** The error responses a route can give, for its `responses`, all in the one envelope. */
export function errorResponses<S extends Exclude<ErrorStatus, 400>>(...statuses: S[]) {
  const responses = {} as Record<S, ReturnType<typeof errorResponse>>;
  for (const status of statuses) responses[status] = errorResponse(status);
  return responses;
}

/** The 400 of a route whose input can be invalid, with an example of its own parameters. */
export function invalidInput(example: Issue) {
  return { 400: errorResponse(400, example) };
}

/** What any route can fail with: configuration or code at fault. */
export const SERVER_ERRORS = [500] as const;
/** What any route that reads the database can fail with, besides its own errors. */
export const DATABASE_ERRORS = [500, 503] as const;
/**
 * What a route that looks a customer up by slug (or an account by id) can fail with: 429 is the
 * enumeration brake of src/rate-limit.ts, which only these routes have.
 */
export const SLUG_ERRORS = [404, 429, ...DATABASE_ERRORS] as const;
