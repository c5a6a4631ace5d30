/**
 * A page of a customer's trade history, or of one of their accounts, in one statement
 * (paged.ts): the slug (and account ownership) lookup, the total of all matches and the page.
 */
import { type SQL, and, eq, inArray, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { HistoryFilters, Lookup, Transaction } from "./types";
import { TransactionPage } from "../../schemas";
import type { Db } from "../client";
import {
  accounts,
  brokers,
  customerHistories,
  customers,
  holdingMetrics,
  metricsPending,
  tradePlaces,
  transactions,
} from "../schema";
import { live } from "../served";
import { type PagedRow, pagedListOf, pagedListQuery } from "./paged";
import { servedAccountOfCustomer, transactionJson } from "./shapes";

// A type, not an interface: row types must be indexable records.
export type HistoryPage = {
  total: number;
  data: Transaction[];
};

export interface HistoryOwner {
  /** Null when the path held no possible slug: it is bound as NULL and matches nothing. */
  slug: Lookup;
  /**
   * Only this account's trades; it must be the customer's. Absent for the customer-wide
   * history; null (no possible account id) matches no account, like an unknown one.
   */
  accountId?: Lookup;
}

/** Undefined when the slug is unknown or the account is not the customer's. */
export async function findHistory(db: Db, owner: HistoryOwner, query: HistoryFilters): Promise<HistoryPage | undefined> {
  return historyOf((await historyQuery(db, owner, query)).rows);
}

/** The page of historyQuery's rows; undefined without a row. */
export const historyOf = (rows: readonly PagedRow[]): HistoryPage | undefined => pagedListOf(TransactionPage.shape.data, rows);

/** The statement of findHistory, not yet sent, so it can travel in a batch; its one row is the page. */
export function historyQuery(db: Db, owner: HistoryOwner, query: HistoryFilters) {
  const perAccount = owner.accountId !== undefined;
  return pagedListQuery(db, {
    table: transactions,
    accountId: transactions.accountId,
    where: and(
      eq(transactions.customerId, customers.id),
      live(transactions),
      servedAccountOfCustomer,
      perAccount ? sql`${transactions.accountId} = ${owner.accountId}` : undefined,
      query.broker ? inArray(transactions.accountId, accountsAtBroker(query.broker)) : undefined,
    ),
    date: transactions.tradeDate,
    id: transactions.id,
    stockCode: transactions.stockCode,
    type: transactions.type,
    item: transactionJson,
    // The stored places follow the whole history; a broker is a filter like the others.
    ordinals: query.broker
      ? undefined
      : perAccount
        ? {
            ...placesOf(sql`${tradePlaces.accountId} = ${owner.accountId}`, tradePlaces.accountPlace),
            total: sql`coalesce((select (${customerHistories.accountTrades} ->> ${owner.accountId}::text)::int
            from ${customerHistories} where ${customerHistories.customerId} = ${customers.id}), 0)`,
          }
        : {
            ...placesOf(sql`${tradePlaces.customerId} = ${customers.id}`, tradePlaces.place),
            total: sql`(select ${customerHistories.trades} from ${customerHistories} where ${customerHistories.customerId} = ${customers.id})`,
          },
    // A broker is a filter of its own: such a page is counted.
    byStockCode: query.broker
      ? undefined
      : {
          accounts: and(servedAccountOfCustomer, perAccount ? sql`${accounts.id} = ${owner.accountId}` : undefined) as SQL,
          total: (code) => sql`(select coalesce(sum((${holdingMetrics.partial} ->> 'transactions')::int), 0)::int
            from ${accounts} join ${holdingMetrics} on ${holdingMetrics.accountId} = ${accounts.id} and ${holdingMetrics.stockCode} = ${code}
            where ${servedAccountOfCustomer} ${perAccount ? sql`and ${accounts.id} = ${owner.accountId}` : sql``})`,
          current: historyCurrent,
        },
    owner: and(
      sql`${customers.slug} = ${owner.slug}`,
      live(customers),
      perAccount ? ownsAccount(owner.accountId ?? null) : undefined,
    ) as SQL,
    query,
  });
}

/** The trades' places (`trade_places`) of the owner `owner` picks, ranked by `column`, current or not. */
const placesOf = (owner: SQL, column: PgColumn) => ({
  table: tradePlaces,
  rowId: tradePlaces.transactionId,
  owner,
  column,
  current: historyCurrent,
});

/**
 * The customer's trades have their current places (src/sync/ordinals.ts): the sync built them
 * (a customer_histories row) and no change since waits for it (metrics_pending is written in the
 * same transaction as the change, and emptied in the one that places the trades again).
 */
const historyCurrent = sql`exists (select from ${customerHistories} where ${customerHistories.customerId} = ${customers.id})
  and not exists (select from ${metricsPending} where ${metricsPending.customerId} = ${customers.id})`;

/** The current customer's accounts at a broker; `code` is lowercase (src/schemas/queries.ts). */
function accountsAtBroker(code: string) {
  return sql`(
    select ${accounts.id} from ${accounts} join ${brokers} on ${brokers.id} = ${accounts.brokerId}
    where ${servedAccountOfCustomer} and lower(${brokers.code}) = ${code})`;
}

/** The account is one of the customer's served accounts. */
function ownsAccount(accountId: Lookup) {
  return sql`exists (
    select from ${accounts} join ${brokers} on ${brokers.id} = ${accounts.brokerId}
    where ${accounts.id} = ${accountId} and ${servedAccountOfCustomer})`;
}
