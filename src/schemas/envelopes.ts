/**
 * Response envelopes: `{success: true, data}` (plus `pagination` on the trade history) and the
 * one error envelope of src/errors.ts, with the OpenAPI response objects the routes declare.
 */
import { z } from "@hono/zod-openapi";
import { ERROR_CODES, type ErrorBody, type ErrorCode as Code, codeFor, reasonFor } from "../errors";
import { BRAKES, type BrakeName } from "../brakes";
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

export const ErrorCode = z.enum(ERROR_CODES).openapi("ErrorCode", {
  description:
    "What went wrong, for a program to branch on; stable across releases. `rate_limited_lookup`: too many unknown slugs or account ids from this address; `rate_limited_admin_key`: too many wrong admin keys from it; `sync_running`: another sync holds the lease; `source_unavailable`: the back office could not be read; `database_unavailable`: the serving database could not; `misconfigured`: the Worker lacks a binding it needs, or (from `POST /api/sync`) is an older release than the one whose stored metrics the target holds",
  example: "not_found",
});

/**
 * The envelope's fields, one schema per kind of error: each is strict, so none is built by
 * extending another (a strict base under `allOf` would forbid the fields added to it).
 */
const envelope = {
  success: z.literal(false),
  error: z.string().openapi({ description: "The HTTP reason phrase, for people", example: "Not Found" }),
  code: ErrorCode,
};
const requestIdField = z.string().openapi({ description: "This request's id: quote it when reporting a problem" });

// Not "Error": generated clients would declare an `Error` type that hides the built-in one.
export const ErrorResponse = z.strictObject(envelope).openapi("ErrorResponse") satisfies z.ZodType<ErrorBody>;

export const ValidationErrorResponse = z
  .strictObject({ ...envelope, details: z.array(Issue).openapi({ description: "What is wrong with which parameter" }) })
  .openapi("ValidationErrorResponse") satisfies z.ZodType<ErrorBody>;

export const SyncRunningResponse = z
  .strictObject({
    ...envelope,
    details: z
      .strictObject({
        reason: z.string().openapi({ example: "another sync run holds the lease until 2026-11-27T09:00:00.000000Z" }),
        retry_after_seconds: z
          .number()
          .int()
          .min(0)
          .openapi({ format: "int32", description: "When the lease frees, as `Retry-After` says", example: 42 }),
      })
      .openapi({ description: "Who holds the lease, and until when" }),
  })
  .openapi("SyncRunningResponse") satisfies z.ZodType<ErrorBody>;

export const ServerErrorResponse = z
  .strictObject({ ...envelope, request_id: requestIdField })
  .openapi("ServerErrorResponse") satisfies z.ZodType<ErrorBody>;

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
  409: "A sync is already running; `details` says until when",
  500: "Unexpected failure; the body carries `request_id`",
  502: "The source database is unavailable; nothing was changed",
  503: "The database is unavailable (`database_unavailable`), or the sync is still building this customer's history after an upgrade (`history_building`, with `Retry-After`), or a sync was asked of an older release than the one whose stored metrics the target holds (`misconfigured`); the body carries `request_id`",
} as const;

type ErrorStatus = keyof typeof ERRORS;
type Issue = { path: string; message: string };

const EXAMPLE_REQUEST_ID = "0d6f5a52-3c59-4bde-9f2a-7c1e8a9b4d21";

function example(status: number, code: Code = codeFor(status)) {
  return { success: false as const, error: reasonFor(status), code };
}

/** Each status's body: the schema its `details` (or `request_id`) make it, and an example of it. */
function errorContent(status: ErrorStatus, issue?: Issue) {
  if (status === 400) {
    return { schema: ValidationErrorResponse, example: { ...example(400), details: issue ? [issue] : [] } };
  }
  if (status === 409) {
    return {
      schema: SyncRunningResponse,
      example: {
        ...example(409),
        details: { reason: "another sync run holds the lease until 2026-11-27T09:00:00.000000Z", retry_after_seconds: 42 },
      },
    };
  }
  if (status >= 500) return { schema: ServerErrorResponse, example: { ...example(status), request_id: EXAMPLE_REQUEST_ID } };
  return { schema: ErrorResponse, example: example(status) };
}

function errorResponse(status: ErrorStatus, issue?: Issue) {
  return {
    description: ERRORS[status],
    headers: status === 409 ? { ...REQUEST_ID, ...RETRY_AFTER } : REQUEST_ID,
    content: { "application/json": errorContent(status, issue) },
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

const RATE_LIMIT_POLICY = (brake: BrakeName) => ({
  "RateLimit-Policy": header(
    "The brake on this route (draft-ietf-httpapi-ratelimit-headers): `q` failures per `w` seconds from one client address, then 429 for the rest of the window",
    { type: "string", example: BRAKES[brake].policy },
    true,
  ),
});

const THROTTLED = {
  lookup:
    "Too many unknown slugs or account ids from this client address; every lookup from it is refused for `Retry-After` seconds",
  admin_key: "Too many wrong admin keys from this client address; admin calls from it are refused for `Retry-After` seconds",
} as const;

/**
 * A braked route's responses (src/routes/lookup.ts, src/routes/admin.ts): each announces the
 * brake's policy, and the 429 it answers past the limit is added, with the brake's own code.
 */
export function braked<R extends Record<string, object>>(brake: BrakeName, responses: R) {
  const announced: Record<string, object> = {};
  for (const [status, response] of Object.entries(responses) as Array<[string, { headers?: object }]>) {
    announced[status] = { ...response, headers: { ...response.headers, ...RATE_LIMIT_POLICY(brake) } };
  }
  announced[429] = {
    description: THROTTLED[brake],
    headers: { ...REQUEST_ID, ...RETRY_AFTER, ...RATE_LIMIT_POLICY(brake) },
    content: { "application/json": { schema: ErrorResponse, example: example(429, BRAKES[brake].code) } },
  };
  return announced as R;
}

/** What any route can fail with: configuration or code at fault. */
export const SERVER_ERRORS = [500] as const;
/** What any route that reads the database can fail with, besides its own errors. */
export const DATABASE_ERRORS = [500, 503] as const;
/**
 * What a route that looks a customer up by slug (or an account by id) can fail with, besides
 * the 429 its brake adds (`braked`).
 */
export const SLUG_ERRORS = [404, ...DATABASE_ERRORS] as const;
