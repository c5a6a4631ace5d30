/**
 * GET /api/corporate-actions/{slug} (docs/corporate-actions.md): what the customer's accounts received, cash
 * dividends and share credits, paginated and filtered like the trade history, one statement
 * (src/db/queries/corporate-actions.ts), cached in the customer's scope: the sync drops it with
 * the customer's other answers when an action changes. No valuation, so no prices version.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { cached, forCustomer } from "../cache";
import type { AppEnv } from "../context";
import { findCorporateActions } from "../db/queries";
import { notFound } from "../errors";
import {
  CorporateActionPage,
  CorporateActionQuery,
  SLUG_ERRORS,
  SlugParams,
  cachedResponses,
  errorResponses,
  invalidInput,
} from "../schemas";
import { lookupRoute } from "./lookup";

const route = lookupRoute({
  method: "get",
  operationId: "listCorporateActions",
  path: "/corporate-actions/{slug}",
  tags: ["Corporate actions"],
  summary: "Dividends and share credits in all accounts",
  description:
    "What the customer's accounts received from issuers: cash dividends (`gross_amount`, the `tax` withheld, `net_amount`) and share credits (stock dividends, bonus shares, splits: `quantity` shares at no cost), newest `ex_date` first, then id descending. Filters combine, dates bound `ex_date`; `pagination.total` counts every match, and a page past the end is empty with the true total.",
  request: { params: SlugParams, query: CorporateActionQuery },
  responses: {
    ...cachedResponses("A page of corporate actions, newest first", CorporateActionPage),
    ...invalidInput({ path: "type", message: "must be cash_dividend or share_dividend" }),
    ...errorResponses(...SLUG_ERRORS),
  },
});

export const corporateActions = new OpenAPIHono<AppEnv>().openapi(
  route,
  cached(forCustomer)(async (c) => {
    const query = c.req.valid("query");
    const page = await findCorporateActions(c.get("db"), c.req.valid("param").slug, query);
    if (!page) throw notFound();
    return c.json(
      {
        success: true as const,
        data: page.data,
        pagination: { page: query.page, per_page: query.per_page, total: page.total },
      },
      200,
    );
  }),
);
