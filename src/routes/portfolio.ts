import { OpenAPIHono, createRoute } from "@hono/zod-openapi";
import { cached, forCustomer } from "../cache";
import type { AppEnv } from "../context";
import { findPortfolio } from "../db/queries";
import { notFound } from "../errors";
import { PortfolioResponse, SLUG_ERRORS, SlugParams, cachedResponses, errorResponses } from "../schemas";

const route = createRoute({
  method: "get",
  operationId: "getPortfolio",
  path: "/portfolio/{slug}",
  tags: ["Portfolio"],
  summary: "Current holdings",
  description: "Holdings in all of the customer's accounts, by stock code, then account.",
  request: { params: SlugParams },
  responses: {
    ...cachedResponses("The holdings; empty when the customer holds nothing", PortfolioResponse),
    ...errorResponses(...SLUG_ERRORS),
  },
});

export const portfolio = new OpenAPIHono<AppEnv>().openapi(
  route,
  cached(forCustomer)(async (c) => {
    const holdings = await findPortfolio(c.get("db"), c.req.valid("param").slug);
    if (!holdings) throw notFound();
    return c.json({ success: true, data: holdings }, 200);
  }),
);
