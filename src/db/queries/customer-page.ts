/**
 * What the customer's page (GET /c/:slug) shows: the aggregate and one page of the trade
 * history, the API's own two statements sent as one batch, so the page costs one round trip
 * and reads exactly what /api/aggregate and /api/transactions read.
 */
import type { HistoryFilters, Lookup } from "./types";
import type { Db } from "../client";
import { type Aggregate, aggregateOf, aggregateQuery } from "./customer";
import { type HistoryPage, historyOf, historyQuery } from "./history";

export interface CustomerPage {
  aggregate: Aggregate;
  history: HistoryPage;
}

/** Undefined when the slug is unknown. */
export async function findCustomerPage(db: Db, slug: Lookup, query: HistoryFilters): Promise<CustomerPage | undefined> {
  const [aggregate, history] = await db.batch([aggregateQuery(db, slug), historyQuery(db, { slug }, query)]);
  const found = aggregateOf(aggregate.rows);
  const page = historyOf(history.rows);
  return found && page ? { aggregate: found, history: page } : undefined;
}
