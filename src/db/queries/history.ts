/**
 * A page of a customer's trade history (4.3), or of one of their accounts (4.4), in one
 * statement: the slug (and account ownership) lookup, the total of all matches and the page.
 * Newest first, with the id as tie-break, which is the order of the history indexes, so the
 * page is an index range scan.
 */
import { and, eq, gte, inArray, lte, sql } from "drizzle-orm";
import type { HistoryFilters, Lookup, Transaction } from "./types";
import { TransactionPage } from "../../schemas";
import type { Db } from "../client";
import { decodeExact } from "../exact-json";
import { accounts, brokers, customers, staff, transactions } from "../schema";
import { live } from "../served";
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

/** The page of historyQuery's rows, money read with every digit; undefined without a row. */
export function historyOf(rows: readonly HistoryRow[]): HistoryPage | undefined {
  const row = rows[0];
  return row && { total: row.total, data: decodeExact(TransactionPage.shape.data, row.data) };
}

/** The page's transactions as the driver parsed them: money as text, so no digit is lost (exact-json.ts). */
type HistoryRow = { total: number; data: unknown };

/** The statement of findHistory, not yet sent, so it can travel in a batch; its one row is the page. */
export function historyQuery(db: Db, owner: HistoryOwner, query: HistoryFilters) {
  const perAccount = owner.accountId !== undefined;
  const matching = and(
    eq(transactions.customerId, customers.id),
    live(transactions),
    servedAccountOfCustomer,
    perAccount ? sql`${transactions.accountId} = ${owner.accountId}` : undefined,
    query.broker ? inArray(transactions.accountId, accountsAtBroker(query.broker)) : undefined,
    query.stock_code ? eq(transactions.stockCode, query.stock_code) : undefined,
    query.type ? eq(transactions.type, query.type) : undefined,
    query.start_date ? gte(transactions.tradeDate, query.start_date) : undefined,
    query.end_date ? lte(transactions.tradeDate, query.end_date) : undefined,
  );
  const owned = perAccount ? ownsAccount(owner.accountId ?? null) : undefined;

  return db.execute<HistoryRow>(sql`
    select
      (select count(*)::int from ${transactions}
        join ${accounts} on ${accounts.id} = ${transactions.accountId}
        join ${brokers} on ${brokers.id} = ${accounts.brokerId}
       where ${matching}) as total,
      coalesce((
        select json_agg(page.tx order by page.trade_date desc, page.id desc)
        from (
          select ${transactions.id} as id, ${transactions.tradeDate} as trade_date, ${transactionJson} as tx
          from ${transactions}
            join ${accounts} on ${accounts.id} = ${transactions.accountId}
            join ${brokers} on ${brokers.id} = ${accounts.brokerId}
          where ${matching}
          order by ${transactions.tradeDate} desc, ${transactions.id} desc
          limit ${query.per_page} offset ${(query.page - 1) * query.per_page}
        ) page
      ), '[]'::json) as data
    from ${customers} join ${staff} on ${staff.id} = ${customers.staffId}
    where ${and(sql`${customers.slug} = ${owner.slug}`, live(customers), owned)}`);
}

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
