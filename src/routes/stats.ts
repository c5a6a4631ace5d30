import { OpenAPIHono, createRoute } from "@hono/zod-openapi";
import { cached, forCustomer } from "../cache";
import type { AppEnv } from "../context";
import { findStats } from "../db/queries";
import { notFound } from "../errors";
import { SLUG_ERRORS, SlugParams, StatsResponse, cachedResponses, errorResponses } from "../schemas";

const route = createRoute({
  method: "get",
  operationId: "getStats",
  path: "/stats/{slug}",
  tags: ["Metrics"],
  summary: "Realized P&L statistics",
  description: "Totals over all of the customer's trades and the P&L realized by FIFO matching, as of the last sync.",
  request: { params: SlugParams },
  responses: {
    ...cachedResponses("The statistics", StatsResponse),
    ...errorResponses(...SLUG_ERRORS),
  },
});

export const stats = new OpenAPIHono<AppEnv>().openapi(
  route,
  cached(forCustomer)(async (c) => {
    const data = await findStats(c.get("db"), c.req.valid("param").slug);
    if (!data) throw notFound();
    return c.json({ success: true, data }, 200);
  }),
);
