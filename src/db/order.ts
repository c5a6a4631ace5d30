/**
 * Newest first, as the indexes keep it. drizzle-kit declares a `.desc()` index column
 * `DESC NULLS LAST` (src/db/schema/), while a plain `ORDER BY … DESC` means `NULLS FIRST`: the
 * planner then cannot take the order from the index, and reads and sorts every matching row
 * before a LIMIT (a filtered history page of the 100,000-trade customer; each code's latest close
 * on a price day). The columns are never null, so spelling the index's order changes no result.
 */
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/** SQL: `a desc nulls last, b desc nulls last, …`, an ORDER BY list a `.desc()` index gives. */
export const newestFirst = (...columns: SQLWrapper[]): SQL =>
  sql.join(
    columns.map((column) => sql`${column} desc nulls last`),
    sql`, `,
  );
