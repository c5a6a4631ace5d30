/**
 * Loads a demo book into the source database over Neon's HTTP driver. Each statement inserts a
 * whole batch as one JSON parameter through jsonb_to_recordset (one bind parameter, however
 * many rows), and each round trip sends the buffered batches of every table as one
 * transaction, parents first, so foreign keys always hold.
 */
import { getTableConfig } from "drizzle-orm/pg-core";
import type { Sql } from "../../src/db/client";
import { sourceTables } from "../../src/db/source";
import { emptyBook, type DemoBook } from "./generate";

type Table = keyof DemoBook;

/** Tables in foreign-key order, each with its insert statement built from src/db/source.ts. */
const TABLES = (Object.keys(sourceTables) as Table[]).map((table) => {
  const config = getTableConfig(sourceTables[table]);
  const names = config.columns.map((column) => `"${column.name}"`).join(", ");
  const types = config.columns.map((column) => `"${column.name}" ${column.getSQLType()}`).join(", ");
  return {
    table,
    name: config.name,
    insert: `INSERT INTO "${config.name}" (${names}) SELECT ${names} FROM jsonb_to_recordset($1::jsonb) AS r(${types})`,
  };
});

export type LoadCounts = Record<Table, number>;

export interface LoadOptions {
  /** Rows per statement. */
  batchSize?: number;
}

/** Inserts a book, or a stream of book chunks (generateDemoBookChunks), and counts the rows. */
export async function loadBook(
  sql: Sql,
  book: DemoBook | Iterable<DemoBook>,
  { batchSize = 5000 }: LoadOptions = {},
): Promise<LoadCounts> {
  const chunks = Symbol.iterator in book ? book : [book];
  const counts = Object.fromEntries(TABLES.map(({ table }) => [table, 0])) as LoadCounts;
  let buffer = emptyBook();
  let buffered = 0;

  const flush = async () => {
    const statements: [insert: string, json: string][] = [];
    for (const { table, insert } of TABLES) {
      const rows: unknown[] = buffer[table];
      for (let start = 0; start < rows.length; start += batchSize) {
        statements.push([insert, JSON.stringify(rows.slice(start, start + batchSize))]);
      }
      counts[table] += rows.length;
    }
    if (statements.length > 0) await sql.transaction(statements.map(([insert, json]) => sql.query(insert, [json])));
    buffer = emptyBook();
    buffered = 0;
  };

  for (const chunk of chunks) {
    for (const { table } of TABLES) {
      for (const row of chunk[table]) (buffer[table] as unknown[]).push(row);
      buffered += chunk[table].length;
    }
    if (buffered >= batchSize) await flush();
  }
  await flush();
  return counts;
}

/** True when no source table has a row, i.e. the demo may be loaded. */
export async function isSourceEmpty(sql: Sql): Promise<boolean> {
  const checks = TABLES.map(({ name }) => `exists (select 1 from "${name}")`).join(" or ");
  const [row] = await sql.query(`select ${checks} as has_rows`);
  return row?.has_rows === false;
}

/** Some live customers' slugs and names, to print links to the demo. */
export async function demoSlugs(sql: Sql, limit = 5): Promise<{ slug: string; name: string }[]> {
  const rows = await sql.query("select slug, name from customers where deleted_at is null order by name, slug limit $1", [limit]);
  return rows as { slug: string; name: string }[];
}
