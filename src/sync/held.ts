/**
 * Rows the target keeps but cannot serve yet, and rows it set aside (DESIGN §7): both are
 * derived from the tables themselves, so they cannot drift from the data.
 *
 * - Held: a live row whose parent (owner or reference) is not in the target. It waits where it
 *   is, with its payload, and is served as soon as the parent arrives, however late.
 * - Rejected: a row no ledger can hold, stored with the reason in `rejected`.
 */
import type { Sql } from "../db/client";
import { MIRRORED } from "../db/schema";
import { int, manyRows, oneRow, text, type Statement } from "./database";
import { STREAMS, type Stream, type StreamName } from "./streams";

/** SQL yielding (stream, id, reason) for the held rows of one stream. */
function heldRows(stream: Stream): string[] {
  const { derived } = stream;
  return stream.parents.map((parent) => {
    // A copied column is null exactly while its parent is missing: an indexed test instead of
    // an anti-join over the whole table (transactions).
    const missing =
      derived?.foreignKey === parent.column
        ? `r.${derived.name} is null`
        : `not exists (select from ${parent.stream} p where p.id = r.${parent.column})`;
    return `select '${stream.name}'::text as stream, r.id, '${parent.column} ' || r.${parent.column} || ' is not in the target' as reason,
        r.${MIRRORED.sourceUpdatedAt} as changed_at
      from ${stream.name} r where r.${MIRRORED.deletedAt} is null and ${missing}`;
  });
}

const HELD = STREAMS.flatMap(heldRows).join(" union all ");

export interface ListedRow {
  stream: StreamName;
  id: string;
  reason: string;
  /** How long ago (target clock) the row's version was stamped in the source: how long it has waited. */
  age_seconds: number;
}

const listed = (r: Record<string, unknown>): ListedRow => ({
  stream: text(r.stream) as StreamName,
  id: text(r.id),
  reason: text(r.reason),
  age_seconds: int(r.age_seconds),
});

const AGE = "greatest(0, floor(extract(epoch from now() - changed_at)))::int";

/** How many rows a listing holds, and the age of the oldest (null when none). */
export interface Summary {
  count: number;
  oldest_age_seconds: number | null;
}

const summary = (target: Sql, rows: string): Statement<Summary> =>
  oneRow(target.query(`select count(*)::int as n, max(${AGE}) as oldest from (${rows}) r`), (r) => ({
    count: int(r.n),
    oldest_age_seconds: r.oldest === null ? null : int(r.oldest),
  }));

const listing = (target: Sql, rows: string, limit: number) =>
  manyRows(
    target.query(`select stream, id, reason, ${AGE} as age_seconds from (${rows}) r order by stream, id limit $1`, [limit]),
    listed,
  );

export const countHeld = (target: Sql): Statement<number> =>
  oneRow(target.query(`select count(*)::int as held from (${HELD}) h`), (r) => int(r.held));

export const summarizeHeld = (target: Sql) => summary(target, HELD);
export const listHeld = (target: Sql, limit: number) => listing(target, HELD, limit);

const REJECTED = STREAMS.map(
  (s) =>
    `select '${s.name}'::text as stream, id, ${MIRRORED.rejected} as reason, ${MIRRORED.sourceUpdatedAt} as changed_at
     from ${s.name} where ${MIRRORED.rejected} is not null`,
).join(" union all ");

export const summarizeRejected = (target: Sql) => summary(target, REJECTED);
export const listRejected = (target: Sql, limit: number) => listing(target, REJECTED, limit);
