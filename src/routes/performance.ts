import { OpenAPIHono } from "@hono/zod-openapi";
import { cached, forValuedCustomer } from "../cache";
import type { AppEnv } from "../context";
import { findPerformance } from "../db/queries";
import { AppError, notFound } from "../errors";
import { lookupRoute } from "./lookup";
import {
  SLUG_ERRORS,
  PerformanceQuery,
  PerformanceResponse,
  SlugParams,
  cachedResponses,
  errorResponses,
  invalidInput,
} from "../schemas";

/** How long a client waits before asking again while the sync builds a customer's position steps. */
const BUILDING_RETRY_SECONDS = 60;

const route = lookupRoute({
  method: "get",
  operationId: "getPerformance",
  path: "/performance/{slug}",
  tags: ["Metrics"],
  summary: "How the portfolio has done over a period",
  description:
    "The portfolio's value over time, the money put in and taken out, the gain, the time-weighted (`twr`) and money-weighted (`mwr`) returns and the benchmark over the period (s, e]. `range` names the period ending at `to` (default: the last point); `from` starts it at a date instead; `benchmark` picks the code to compare with. Per stock code (`positions`), what moved the portfolio; `drawdown`, its worst fall. The shares in the ledger only: no cash balance or margin. 503 with `Retry-After` while the sync is still building the customer's history after an upgrade.",
  request: { params: SlugParams, query: PerformanceQuery },
  responses: {
    ...cachedResponses("The performance over the period", PerformanceResponse),
    ...invalidInput({ path: "range", message: "must be one of 1d, 1w, 1m, 3m, 6m, ytd, 1y, 3y, 5y, max" }),
    ...errorResponses(...SLUG_ERRORS),
  },
});

export const performance = new OpenAPIHono<AppEnv>().openapi(
  route,
  // Values every point with the closes of its day: a close changed at any date makes it stale.
  cached(forValuedCustomer)(async (c) => {
    const found = await findPerformance(
      c.get("db"),
      c.req.valid("param").slug,
      c.req.valid("query"),
      c.get("config").BENCHMARK_CODE,
    );
    if (found === undefined) throw notFound();
    if (found === "building") {
      throw new AppError(503, { code: "history_building", headers: { "Retry-After": String(BUILDING_RETRY_SECONDS) } });
    }
    return c.json({ success: true as const, data: found }, 200);
  }),
);
