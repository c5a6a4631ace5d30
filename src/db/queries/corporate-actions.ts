/**
 * A page of what a customer's accounts received (docs/corporate-actions.md: cash dividends and share credits)
 * in one statement: the slug lookup, the total of all matches and the page. Served rows only
 * (src/db/served.ts): a live action in one of the customer's served accounts. Newest ex_date
 * first, then id descending (paged.ts), the order of corporate_actions_account_date_idx.
 */
import { and, sql } from "drizzle-orm";
import type { CorporateAction, CorporateActionFilters, Lookup } from "./types";
import { CorporateActionPage } from "../../schemas";
import type { Db } from "../client";
import { brokers, corporateActions, customers } from "../schema";
import { live } from "../served";
import { type PagedRow, pagedListOf, pagedListQuery } from "./paged";
import { corporateActionJson, servedAccountOfCustomer } from "./shapes";

// A type, not an interface: row types must be indexable records.
export type CorporateActionList = {
  total: number;
  data: CorporateAction[];
};

/** Undefined when no served customer has the slug. */
export async function findCorporateActions(
  db: Db,
  slug: Lookup,
  query: CorporateActionFilters,
): Promise<CorporateActionList | undefined> {
  return corporateActionsOf((await corporateActionsQuery(db, slug, query)).rows);
}

/** The list of corporateActionsQuery's rows; undefined without a row. */
export const corporateActionsOf = (rows: readonly PagedRow[]): CorporateActionList | undefined =>
  pagedListOf(CorporateActionPage.shape.data, rows);

/**
 * The statement of findCorporateActions, not yet sent, so it can travel in a batch (the
 * customer's page, src/db/queries/customer-page.ts); its one row is the page.
 */
export function corporateActionsQuery(db: Db, slug: Lookup, query: CorporateActionFilters) {
  return pagedListQuery(db, {
    table: corporateActions,
    accountId: corporateActions.accountId,
    where: and(
      live(corporateActions),
      servedAccountOfCustomer,
      // `broker` is lowercase (src/schemas/queries.ts); the account's broker is joined.
      query.broker ? sql`lower(${brokers.code}) = ${query.broker}` : undefined,
    ),
    date: corporateActions.exDate,
    id: corporateActions.id,
    stockCode: corporateActions.stockCode,
    type: corporateActions.type,
    item: corporateActionJson,
    owner: sql`${customers.slug} = ${slug} and ${live(customers)}`,
    query,
  });
}
