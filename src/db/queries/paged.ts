/**
 * The one statement a paged list is (the trade history, the corporate actions): the owner's
 * lookup, the total of all matches and one page, newest first with the id as tie-break, which
 * is the order of the lists' indexes. No row: no owner.
 *
 * What a page costs. A list given `ordinals` (the unfiltered trade history, history.ts) reads
 * its total from one stored row and its page as an index range scan over the stored places of
 * the rows (src/sync/ordinals.ts): page 10,000 costs what page 1 costs. Otherwise, and while the
 * owner's places are not current, the total is a count of the matches and the page skips
 * (page - 1) × per_page of them: a filtered page walks the owner's matches newest first up to its
 * end, so its cost grows with its depth, bounded by the owner's rows (the trades of one customer,
 * or one account, at most). A filter on `stock_code` alone is read as index ranges per account,
 * with a stored total (ByStockCode): its first page costs what an unfiltered one costs. The
 * corporate-actions list is always paged by count and skip:
 * a customer's dividends and share credits are a few per holding per year.
 */
import { type SQL, and, eq, gte, lte, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { Db } from "../client";
import { decodeExact } from "../exact-json";
import { newestFirst } from "../order";
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
  /** The rows' stored places, when the list keeps them for `where`; unused when a filter of `query` is set. */
  ordinals?: Ordinals;
  /** How a page filtered by `stock_code` alone is read, when the list has a way (ByStockCode). */
  byStockCode?: ByStockCode;
  /** The page and the filters both lists take (src/schemas/queries.ts: listQuery). */
  query: { page: number; per_page: number; stock_code?: string; type?: string; start_date?: string; end_date?: string };
}

/**
 * Each matching row's place among the owner's matches, oldest first from 1, kept by the sync in a
 * table of its own: the rows of page p are those placed from total - p × per_page + 1 to
 * total - (p - 1) × per_page.
 */
export interface Ordinals {
  /** The places, one row per listed row, joined to it by `rowId` = the list's `id`. */
  table: PgTable;
  rowId: PgColumn;
  /** Which places are the owner's: with `column`, one index range. */
  owner: SQL;
  /** The column holding a row's place. */
  column: PgColumn;
  /** True when the owner's places are current; `customers` in scope. */
  current: SQL;
  /** How many rows are placed, where current: the list's exact total. */
  total: SQL;
}

/**
 * A page filtered by `stock_code` alone (the page a stock's link opens), read as index range scans:
 * each of the owner's accounts gives its matches newest first, up to the page's end, from an index
 * on (account, stock code, date, id) walked backward, and the page is taken from their merge; the
 * total is a stored count where current. So its first page costs what an unfiltered page costs,
 * however many trades the stock has.
 */
export interface ByStockCode {
  /** Which of the owner's accounts the list reads (`accounts` and `customers` in scope). */
  accounts: SQL;
  /** The stored count of the owner's rows of `code`, and whether it is current. */
  total: (code: string) => SQL;
  current: SQL;
}

/** The statement, not yet sent, so it can travel in a batch (src/db/queries/customer-page.ts). */
export function pagedListQuery(db: Db, list: PagedList) {
  const { query } = list;
  const unfiltered = !query.stock_code && !query.type && !query.start_date && !query.end_date;
  const ordinals = unfiltered ? list.ordinals : undefined;
  const filters = and(
    list.where,
    query.stock_code ? eq(list.stockCode, query.stock_code) : undefined,
    query.type ? eq(list.type, query.type) : undefined,
    query.start_date ? gte(list.date, query.start_date) : undefined,
    query.end_date ? lte(list.date, query.end_date) : undefined,
  );
  const withAccount = sql`join ${accounts} on ${accounts.id} = ${list.accountId}
    join ${brokers} on ${brokers.id} = ${accounts.brokerId}`;
  const matching = sql`from ${list.table} ${withAccount} where ${filters ?? sql`true`}`;
  const counted = sql`(select count(*)::int ${matching})`;
  const skipped = sql`(
        select json_agg(page.item order by page.date desc, page.id desc)
        from (
          select ${list.id} as id, ${list.date} as date, ${list.item} as item
          ${matching}
          order by ${newestFirst(list.date, list.id)}
          limit ${query.per_page} offset ${(query.page - 1) * query.per_page}
        ) page
      )`;
  const byCode = query.stock_code && !query.type && !query.start_date && !query.end_date ? list.byStockCode : undefined;
  if (byCode) {
    const end = query.page * query.per_page;
    const merged = sql`(
        select json_agg(page.item order by page.date desc, page.id desc)
        from (
          select x.id, x.date, x.item
          from ${accounts} join ${brokers} on ${brokers.id} = ${accounts.brokerId}
          cross join lateral (
            select ${list.id} as id, ${list.date} as date, ${list.item} as item
            from ${list.table} where ${list.accountId} = ${accounts.id} and ${filters ?? sql`true`}
            order by ${newestFirst(list.date, list.id)} limit ${end}
          ) x
          where ${byCode.accounts}
          order by x.date desc, x.id desc
          limit ${query.per_page} offset ${(query.page - 1) * query.per_page}
        ) page
      )`;
    return db.execute<PagedRow>(sql`
    select case when ${byCode.current} then ${byCode.total(query.stock_code as string)} else ${counted} end as total,
      coalesce(${merged}, '[]'::json) as data
    from ${customers} join ${staff} on ${staff.id} = ${customers.staffId}
    where ${list.owner}`);
  }
  if (!ordinals) {
    return db.execute<PagedRow>(sql`
    select ${counted} as total, coalesce(${skipped}, '[]'::json) as data
    from ${customers} join ${staff} on ${staff.id} = ${customers.staffId}
    where ${list.owner}`);
  }
  // Both ways in one statement: a CASE runs only the subqueries of the branch it takes.
  const last = sql`(${ordinals.total} - ${(query.page - 1) * query.per_page}::bigint)`;
  const placed = sql`(
        select json_agg(page.item order by page.place desc)
        from (
          select ${ordinals.column} as place, ${list.item} as item
          from ${ordinals.table} join ${list.table} on ${list.id} = ${ordinals.rowId} ${withAccount}
          where ${ordinals.owner} and ${ordinals.column} between ${last} - ${query.per_page - 1} and ${last}
            and ${filters ?? sql`true`}
        ) page
      )`;
  return db.execute<PagedRow>(sql`
    select case when ${ordinals.current} then ${ordinals.total} else ${counted} end as total,
      coalesce(case when ${ordinals.current} then ${placed} else ${skipped} end, '[]'::json) as data
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
