import { OpenAPIHono, createRoute } from "@hono/zod-openapi";
import { cached, forCustomer } from "../cache";
import type { AppEnv } from "../context";
import { findAggregate } from "../db/queries";
import { notFound } from "../errors";
import { AggregateResponse, SLUG_ERRORS, SlugParams, cachedResponses, errorResponses } from "../schemas";

const route = createRoute({
  method: "get",
  operationId: "getAggregate",
  path: "/aggregate/{slug}",
  tags: ["Customers"],
  summary: "Profile, holdings, stats and analytics in one call",
  description: "What a page about one customer needs, in one request (and one database round trip).",
  request: { params: SlugParams },
  responses: {
    ...cachedResponses("The customer, portfolio, stats and analytics", AggregateResponse),
    ...errorResponses(...SLUG_ERRORS),
  },
});

export const aggregate = new OpenAPIHono<AppEnv>().openapi(
  route,
  cached(forCustomer)(async (c) => {
    const data = await findAggregate(c.get("db"), c.req.valid("param").slug);
    if (!data) throw notFound();
    return c.json({ success: true, data }, 200);
  }),
);
