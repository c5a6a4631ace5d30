/**
 * Rows the target keeps but cannot serve yet, and rows it set aside (docs/sync.md): both are
 * derived from the tables themselves, so they cannot drift from the data.
 *
 * - Held: a live row whose parent (owner or reference) is not in the target. It waits where it
 *   is, with its payload, and is served as soon as the parent arrives, however late.
 * - Rejected: a row no ledger can hold, stored with the reason in `rejected`.
 */
import { type SQL, sql } from "drizzle-orm";
import { MIRRORED } from "../db/schema";
import { int, manyRows, oneRow, text, type Statement } from "./database";
import type { ListedRow, Summary } from "./schemas";
import { STREAMS, type Stream, type StreamName } from "./streams";

const tableOf = (name: StreamName) => STREAMS.find((s) => s.name === name)!.table;
const column = (name: string) => sql.identifier(name);

/** SQL yielding (stream, id, reason) for the held rows of one stream. */
function heldRows(stream: Stream): SQL[] {
  const { derived } = stream;
  return stream.parents.map((parent) => {
    const foreignKey = sql`r.${column(parent.column)}`;
    // A copied column is null exactly while its parent is missing: an indexed test instead of
    // an anti-join over the whole table (transactions).
    const missing =
      derived?.foreignKey === parent.column
        ? sql`r.${column(derived.name)} is null`
        : sql`not exists (select from ${tableOf(parent.stream)} p where p.id = ${foreignKey})`;
    return sql`select ${stream.name}::text as stream, r.id, ${`${parent.column} `}::text || ${foreignKey} || ' is not in the target' as reason,
        r.${column(MIRRORED.sourceUpdatedAt)} as changed_at
      from ${stream.table} r where r.${column(MIRRORED.deletedAt)} is null and ${missing}`;
  });
}

const HELD = sql.join(STREAMS.flatMap(heldRows), sql` union all `);

const listed = (r: Record<string, unknown>): ListedRow => ({
  stream: text(r.stream) as StreamName,
  id: text(r.id),
  reason: text(r.reason),
  age_seconds: int(r.age_seconds),
});

const AGE = sql`greatest(0, floor(extract(epoch from now() - changed_at)))::int`;

/** How many rows a listing holds, and the age of the oldest (null when none). */
const summary = (rows: SQL): Statement<Summary> =>
  oneRow(sql`select count(*)::int as n, max(${AGE}) as oldest from (${rows}) r`, (r) => ({
    count: int(r.n),
    oldest_age_seconds: r.oldest === null ? null : int(r.oldest),
  }));

const listing = (rows: SQL, limit: number) =>
  manyRows(sql`select stream, id, reason, ${AGE} as age_seconds from (${rows}) r order by stream, id limit ${limit}`, listed);

export const countHeld = (): Statement<number> => oneRow(sql`select count(*)::int as held from (${HELD}) h`, (r) => int(r.held));

export const summarizeHeld = () => summary(HELD);
export const listHeld = (limit: number) => listing(HELD, limit);

const REJECTED = sql.join(
  STREAMS.map(
    (
      s,
    ) => sql`select ${s.name}::text as stream, id, ${column(MIRRORED.rejected)} as reason, ${column(MIRRORED.sourceUpdatedAt)} as changed_at
      from ${s.table} where ${column(MIRRORED.rejected)} is not null`,
  ),
  sql` union all `,
);

export const summarizeRejected = () => summary(REJECTED);
export const listRejected = (limit: number) => listing(REJECTED, limit);
