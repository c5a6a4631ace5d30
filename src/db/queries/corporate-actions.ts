/**
 * A page of what a customer's accounts received (README.md "Corporate actions, average cost, dividends and total return": cash dividends and share credits)
 * in one statement: the slug lookup, the total of all matches and the page. Served rows only
 * (src/db/served.ts): a live action in one of the customer's served accounts. Newest ex_date
 * first, then id descending, the order of corporate_actions_account_date_idx.
 */
import { and, eq, gte, lte, sql } from "drizzle-orm";
import type { CorporateAction, CorporateActionFilters, Lookup } from "./types";
import { CorporateActionPage } from "../../schemas";
import type { Db } from "../client";
import { decodeExact } from "../exact-json";
import { accounts, brokers, corporateActions, customers, staff } from "../schema";
import { live } from "../served";
import { corporateActionJson, servedAccountOfCustomer } from "./shapes";

// A type, not an interface: row types must be indexable records.
export type CorporateActionList = {
  total: number;
  data: CorporateAction[];
};

/** The page's actions as the driver parsed them: money as text, so no digit is lost (exact-json.ts). */
type ActionsRow = { total: number; data: unknown };

/** Undefined when no served customer has the slug. */
export async function findCorporateActions(
  db: Db,
  slug: Lookup,
  query: CorporateActionFilters,
): Promise<CorporateActionList | undefined> {
  return corporateActionsOf((await corporateActionsQuery(db, slug, query)).rows);
}

/** The list of corporateActionsQuery's rows, money read with every digit; undefined without a row. */
export function corporateActionsOf(rows: readonly ActionsRow[]): CorporateActionList | undefined {
  const row = rows[0];
  return row && { total: row.total, data: decodeExact(CorporateActionPage.shape.data, row.data) };
}

/**
 * The statement of findCorporateActions, not yet sent, so it can travel in a batch (the
 * customer's page, src/db/queries/customer-page.ts); its one row is the page.
 */
export function corporateActionsQuery(db: Db, slug: Lookup, query: CorporateActionFilters) {
  const matching = and(
    live(corporateActions),
    servedAccountOfCustomer,
    // `broker` is lowercase (src/schemas/queries.ts); the account's broker is joined.
    query.broker ? sql`lower(${brokers.code}) = ${query.broker}` : undefined,
    query.stock_code ? eq(corporateActions.stockCode, query.stock_code) : undefined,
    query.type ? eq(corporateActions.type, query.type) : undefined,
    query.start_date ? gte(corporateActions.exDate, query.start_date) : undefined,
    query.end_date ? lte(corporateActions.exDate, query.end_date) : undefined,
  );
  const served = sql`from ${corporateActions}
    join ${accounts} on ${accounts.id} = ${corporateActions.accountId}
    join ${brokers} on ${brokers.id} = ${accounts.brokerId}
    where ${matching}`;

  return db.execute<ActionsRow>(sql`
    select
      (select count(*)::int ${served}) as total,
      coalesce((
        select json_agg(page.action order by page.ex_date desc, page.id desc)
        from (
          select ${corporateActions.id} as id, ${corporateActions.exDate} as ex_date, ${corporateActionJson} as action
          ${served}
          order by ${corporateActions.exDate} desc, ${corporateActions.id} desc
          limit ${query.per_page} offset ${(query.page - 1) * query.per_page}
        ) page
      ), '[]'::json) as data
    from ${customers} join ${staff} on ${staff.id} = ${customers.staffId}
    where ${customers.slug} = ${slug} and ${live(customers)}`);
}
