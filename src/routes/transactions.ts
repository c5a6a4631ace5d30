import { OpenAPIHono } from "@hono/zod-openapi";
import { cached, forCustomer } from "../cache";
import type { AppEnv } from "../context";
import { type HistoryOwner, findHistory } from "../db/queries";
import type { Db } from "../db/client";
import { notFound } from "../errors";
import {
  AccountParams,
  HistoryQuery,
  SLUG_ERRORS,
  SlugParams,
  TransactionPage,
  cachedResponses,
  errorResponses,
  invalidInput,
} from "../schemas";
import { lookupRoute } from "./lookup";

const FILTERS =
  "Filters combine. `pagination.total` counts every match, not only this page; a page past the end is empty with the true total.";

const responses = {
  ...cachedResponses("A page of trades, newest first", TransactionPage),
  ...invalidInput({ path: "per_page", message: "must be an integer from 1 to 100" }),
  ...errorResponses(...SLUG_ERRORS),
};

const customerHistory = lookupRoute({
  method: "get",
  operationId: "listTransactions",
  path: "/transactions/{slug}",
  tags: ["Transactions"],
  summary: "Trade history in all accounts",
  description: `The customer's trades in all accounts, paginated and filtered. ${FILTERS}`,
  request: { params: SlugParams, query: HistoryQuery },
  responses,
});

const accountHistory = lookupRoute({
  method: "get",
  operationId: "listAccountTransactions",
  path: "/transactions/{slug}/{accountId}",
  tags: ["Transactions"],
  summary: "Trade history of one account",
  description: `The trades of one of the customer's accounts, with the same filters. 404 when the account is unknown or not this customer's. ${FILTERS}`,
  request: { params: AccountParams, query: HistoryQuery },
  responses,
});

async function historyPage(db: Db, owner: HistoryOwner, query: HistoryQuery) {
  const page = await findHistory(db, owner, query);
  if (!page) throw notFound();
  return {
    success: true as const,
    data: page.data,
    pagination: { page: query.page, per_page: query.per_page, total: page.total },
  };
}

export const transactions = new OpenAPIHono<AppEnv>()
  .openapi(
    customerHistory,
    cached(forCustomer)(async (c) => {
      const { slug } = c.req.valid("param");
      return c.json(await historyPage(c.get("db"), { slug }, c.req.valid("query")), 200);
    }),
  )
  .openapi(
    accountHistory,
    cached(forCustomer)(async (c) => {
      const { slug, accountId } = c.req.valid("param");
      return c.json(await historyPage(c.get("db"), { slug, accountId }, c.req.valid("query")), 200);
    }),
  );
