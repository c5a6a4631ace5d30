/**
 * What the customer's page (GET /c/:slug) shows: the aggregate, the latest cash dividends and
 * share credits, and one page of the trade history, the API's own statements sent as one batch,
 * so the page costs one round trip and reads exactly what /api/aggregate,
 * /api/corporate-actions and /api/transactions read.
 */
import type { CorporateAction, HistoryFilters, Lookup } from "./types";
import { CorporateActionQuery } from "../../schemas";
import type { Db } from "../client";
import { type CorporateActionList, corporateActionsOf, corporateActionsQuery } from "./corporate-actions";
import { type Aggregate, aggregateOf, aggregateQuery } from "./customer";
import { type HistoryPage, historyOf, historyQuery } from "./history";

/**
 * How many of each kind the page lists, newest first: the corporate-actions list's default page
 * (src/schemas/queries.ts), so the page shows what GET /api/corporate-actions/:slug?type=… answers.
 */
export const RECEIVED_SHOWN: number = CorporateActionQuery.parse({}).per_page;

/** What the accounts received, each kind its own first page and the true total. */
export interface Received {
  dividends: CorporateActionList;
  credits: CorporateActionList;
}

export interface CustomerPage {
  aggregate: Aggregate;
  received: Received;
  /** Absent when the history filters were invalid: the page then shows the problem instead. */
  history?: HistoryPage;
}

/** Undefined when the slug is unknown. Without a query the history is not read (invalid filters). */
export async function findCustomerPage(
  db: Db,
  slug: Lookup,
  query: HistoryFilters | undefined,
): Promise<CustomerPage | undefined> {
  const first = (type: CorporateAction["type"]) => corporateActionsQuery(db, slug, { page: 1, per_page: RECEIVED_SHOWN, type });
  const aggregate = aggregateQuery(db, slug);
  if (!query) {
    const [found, dividends, credits] = await db.batch([aggregate, first("cash_dividend"), first("share_dividend")]);
    return pageOf(found.rows, dividends.rows, credits.rows);
  }
  const [found, dividends, credits, history] = await db.batch([
    aggregate,
    first("cash_dividend"),
    first("share_dividend"),
    historyQuery(db, { slug }, query),
  ]);
  const page = historyOf(history.rows);
  const read = pageOf(found.rows, dividends.rows, credits.rows);
  return read && page ? { ...read, history: page } : undefined;
}

type Rows<F extends (...args: never[]) => unknown> = Parameters<F>[0];

function pageOf(
  aggregate: Rows<typeof aggregateOf>,
  dividends: Rows<typeof corporateActionsOf>,
  credits: Rows<typeof corporateActionsOf>,
): CustomerPage | undefined {
  const found = aggregateOf(aggregate);
  const received = { dividends: corporateActionsOf(dividends), credits: corporateActionsOf(credits) };
  if (!found || !received.dividends || !received.credits) return undefined;
  return { aggregate: found, received: { dividends: received.dividends, credits: received.credits } };
}
