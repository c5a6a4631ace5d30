import { OpenAPIHono, createRoute } from "@hono/zod-openapi";
import { cached, forCustomer } from "../cache";
import type { AppEnv } from "../context";
import { findCustomer } from "../db/queries";
import { notFound } from "../errors";
import { CustomerResponse, SLUG_ERRORS, SlugParams, cachedResponses, errorResponses } from "../schemas";

const route = createRoute({
  method: "get",
  operationId: "getCustomer",
  path: "/customers/{slug}",
  tags: ["Customers"],
  summary: "Customer profile",
  description: "The customer with the staff member who looks after them and their linked accounts, each with its broker.",
  request: { params: SlugParams },
  responses: {
    ...cachedResponses("The customer profile", CustomerResponse),
    ...errorResponses(...SLUG_ERRORS),
  },
});

export const customers = new OpenAPIHono<AppEnv>().openapi(
  route,
  cached(forCustomer)(async (c) => {
    const customer = await findCustomer(c.get("db"), c.req.valid("param").slug);
    if (!customer) throw notFound();
    return c.json({ success: true, data: customer }, 200);
  }),
);
