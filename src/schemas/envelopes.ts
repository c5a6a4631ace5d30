/**
 * Response envelopes: `{success: true, data}` (plus `pagination` on the trade history) and the
 * one error envelope of src/errors.ts, with the OpenAPI response objects the routes declare.
 */
import { z } from "@hono/zod-openapi";
import { type ErrorBody, reasonFor } from "../errors";
import { Analytics, Broker, Customer, Holding, Pagination, Stats, Transaction } from "./resources";

const succeeded = z.literal(true);

function success<T extends z.ZodType>(data: T) {
  return z.strictObject({ success: succeeded, data });
}

export const CustomerResponse = success(Customer).openapi("CustomerResponse");
export const PortfolioResponse = success(z.array(Holding).openapi({ description: "Ordered by stock code, then account" })).openapi(
  "PortfolioResponse",
);
export const TransactionPage = z
  .strictObject({
    success: succeeded,
    data: z.array(Transaction).openapi({ description: "Newest first: trade date descending, then id descending" }),
    pagination: Pagination,
  })
  .openapi("TransactionPage");
export const StatsResponse = success(Stats).openapi("StatsResponse");
export const AnalyticsResponse = success(Analytics).openapi("AnalyticsResponse");
export const AggregateResponse = success(
  z.strictObject({ customer: Customer, portfolio: PortfolioResponse.shape.data, stats: Stats, analytics: Analytics }),
).openapi("AggregateResponse");
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
  .openapi("Error") satisfies z.ZodType<ErrorBody>;

export function jsonResponse<T extends z.ZodType>(description: string, schema: T) {
  return { description, content: { "application/json": { schema } } };
}

const ERRORS = {
  400: "A query parameter is invalid; `details` says which and why",
  401: "`X-Admin-Key` is missing or wrong",
  404: "Unknown or malformed slug or account id, or no such route",
  409: "A sync is already running",
  429: "Too many requests for unknown slugs from this client",
  500: "Unexpected failure; the body carries `request_id`",
  502: "The source database is unavailable; nothing was changed",
  503: "The database is unavailable; the body carries `request_id`",
} as const;

type ErrorStatus = keyof typeof ERRORS;

function errorExample(status: ErrorStatus): ErrorBody {
  if (status === 400) return { success: false, error: reasonFor(400), details: [{ path: "per_page", message: "must be an integer from 1 to 100" }] };
  if (status >= 500) return { success: false, error: reasonFor(status), request_id: "0d6f5a52-3c59-4bde-9f2a-7c1e8a9b4d21" };
  return { success: false, error: reasonFor(status) };
}

function errorResponse(status: ErrorStatus) {
  return { description: ERRORS[status], content: { "application/json": { schema: ErrorResponse, example: errorExample(status) } } };
}

/** The error responses a route can give, for its `responses`, all in the one envelope. */
export function errorResponses<S extends ErrorStatus>(...statuses: S[]) {
  const responses = {} as Record<S, ReturnType<typeof errorResponse>>;
  for (const status of statuses) responses[status] = errorResponse(status);
  return responses;
}

/** What any route that reads the database can fail with, besides its own errors. */
export const DATABASE_ERRORS = [500, 503] as const;
/** What a route addressed by a customer slug can fail with. */
export const SLUG_ERRORS = [404, 429, ...DATABASE_ERRORS] as const;
