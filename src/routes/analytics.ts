import { OpenAPIHono, createRoute } from "@hono/zod-openapi";
import { cached, forCustomer } from "../cache";
import type { AppEnv } from "../context";
import { findAnalytics } from "../db/queries";
import { notFound } from "../errors";
import { AnalyticsResponse, SLUG_ERRORS, SlugParams, cachedResponses, errorResponses } from "../schemas";

const route = createRoute({
  method: "get",
  operationId: "getAnalytics",
  path: "/analytics/{slug}",
  tags: ["Metrics"],
  summary: "Trading-style analytics",
  description: "Win rate, average win and loss, profit factor, holding periods and the top deals, as of the last sync.",
  request: { params: SlugParams },
  responses: {
    ...cachedResponses("The analytics", AnalyticsResponse),
    ...errorResponses(...SLUG_ERRORS),
  },
});

export const analytics = new OpenAPIHono<AppEnv>().openapi(
  route,
  cached(forCustomer)(async (c) => {
    const data = await findAnalytics(c.get("db"), c.req.valid("param").slug);
    if (!data) throw notFound();
    return c.json({ success: true, data }, 200);
  }),
);
