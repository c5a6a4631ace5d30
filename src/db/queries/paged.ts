/**
 * The one statement a paged list is (the trade history, the corporate actions): the owner's
 * lookup, the total of all matches and one page, newest first with the id as tie-break, which
 * is the order of the lists' indexes, so the page is an index range scan. No row: no owner.
 */
import { type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { Db } from "../client";
import { decodeExact } from "../exact-json";
import { customers, staff } from "../schema";

/** A page's items as the driver parsed them: money as text, so no digit is lost (exact-json.ts). */
export type PagedRow = { total: number; data: unknown };

export interface PagedList {
  /** `from … where …`: the matching rows, joined as `item` needs, under their owner. */
  matching: SQL;
  /** The list's date and id: its order, newest first. */
  date: PgColumn;
  id: PgColumn;
  /** One item's JSON. */
  item: SQL;
  /** Which customer the list is of (`customers` joined with its `staff`). */
  owner: SQL;
  page: number;
  perPage: number;
}

/** The statement, not yet sent, so it can travel in a batch (src/db/queries/customer-page.ts). */
export function pagedListQuery(db: Db, list: PagedList) {
  return db.execute<PagedRow>(sql`
    select
      (select count(*)::int ${list.matching}) as total,
      coalesce((
        select json_agg(page.item order by page.date desc, page.id desc)
        from (
          select ${list.id} as id, ${list.date} as date, ${list.item} as item
          ${list.matching}
          order by ${list.date} desc, ${list.id} desc
          limit ${list.perPage} offset ${(list.page - 1) * list.perPage}
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
