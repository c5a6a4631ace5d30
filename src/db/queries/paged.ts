/**
 * The one statement a paged list is (the trade history, the corporate actions): the owner's
 * lookup, the total of all matches and one page, newest first with the id as tie-break, which
 * is the order of the lists' indexes, so the page is an index range scan. No row: no owner.
 */
import { type SQL, and, eq, gte, lte, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { Db } from "../client";
import { decodeExact } from "../exact-json";
import { accounts, brokers, customers, staff } from "../schema";

/** A page's items as the driver parsed them: money as text, so no digit is lost (exact-json.ts). */
export type PagedRow = { total: number; data: unknown };

export interface PagedList {
  /** The listed table: its rows belong to accounts, and each item embeds its account and broker. */
  table: PgTable;
  accountId: PgColumn;
  /** Which of its rows are the owner's, and any filter of the list's own (`broker`); the account and broker are joined. */
  where: SQL | undefined;
  /** The list's date and id: its order, newest first; `start_date` and `end_date` bound the date. */
  date: PgColumn;
  id: PgColumn;
  /** The columns `stock_code` and `type` filter on. */
  stockCode: PgColumn;
  type: PgColumn;
  /** One item's JSON. */
  item: SQL;
  /** Which customer the list is of (`customers` joined with its `staff`). */
  owner: SQL;
  /** The page and the filters both lists take (src/schemas/queries.ts: listQuery). */
  query: { page: number; per_page: number; stock_code?: string; type?: string; start_date?: string; end_date?: string };
}

/** The statement, not yet sent, so it can travel in a batch (src/db/queries/customer-page.ts). */
export function pagedListQuery(db: Db, list: PagedList) {
  const { query } = list;
  const filters = and(
    list.where,
    query.stock_code ? eq(list.stockCode, query.stock_code) : undefined,
    query.type ? eq(list.type, query.type) : undefined,
    query.start_date ? gte(list.date, query.start_date) : undefined,
    query.end_date ? lte(list.date, query.end_date) : undefined,
  );
  const matching = sql`from ${list.table}
    join ${accounts} on ${accounts.id} = ${list.accountId}
    join ${brokers} on ${brokers.id} = ${accounts.brokerId}
    where ${filters ?? sql`true`}`;
  return db.execute<PagedRow>(sql`
    select
      (select count(*)::int ${matching}) as total,
      coalesce((
        select json_agg(page.item order by page.date desc, page.id desc)
        from (
          select ${list.id} as id, ${list.date} as date, ${list.item} as item
          ${matching}
          order by ${list.date} desc, ${list.id} desc
          limit ${query.per_page} offset ${(query.page - 1) * query.per_page}
        ) page
      ), '[]'::json) as data
    from ${customers} join ${staff} on ${staff.id} = ${customers.staffId}
    where ${list.owner}`);
}

/** The list in pagedListQuery's rows, its items decoded by `items` with every digit; undefined without a row. */
export function pagedListOf<S extends z.ZodType>(
  items: S,
  rows: readonly PagedRow[],
): { total: number; data: z.output<S> } | undefined {
  const row = rows[0];
  return row && { total: row.total, data: decodeExact(items, row.data) };
}
