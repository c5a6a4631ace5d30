/**
 * Rows the target keeps but cannot serve yet, and rows it set aside (docs/sync.md): both are
 * derived from the tables themselves, so they cannot drift from the data.
 *
 * - Held: a live row whose parent (owner or reference) is not in the target. It waits where it
 *   is, with its payload, and is served as soon as the parent arrives, however late.
 * - Orphan: a held row still held when a reconciliation completed. A complete reconciliation
 *   leaves the target holding what the source holds, and only a reconciliation removes a row
 *   from the target, so the parent was not in the source when its table was compared: deleted
 *   outright by a back office without foreign keys, or never written. Counted and listed apart
 *   from the rows that wait for a late parent, with the parent it lacks; still applied the moment
 *   that parent comes.
 * - Rejected: a row no ledger can hold, stored with the reason in `rejected`.
 *
 * `held_rows` dates them: since when each has been held (its age, not its source stamp's) and
 * when it was found orphaned. recordHeld brings it up to date at the end of every run.
 */
import { type SQL, sql } from "drizzle-orm";
import { heldRows as heldDates, MIRRORED } from "../db/schema";
import { int, manyRows, oneRow, text, type Statement } from "./database";
import type { ListedRow, OrphanRow, Summary } from "./schemas";
import { STREAMS, type Stream, type StreamName } from "./streams";

const tableOf = (name: StreamName) => STREAMS.find((s) => s.name === name)!.table;
const column = (name: string) => sql.identifier(name);

/** SQL yielding (stream, id, reason, parent_stream, parent_id) for the held rows of one stream. */
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
        ${parent.stream}::text as parent_stream, ${foreignKey} as parent_id
      from ${stream.table} r where r.${column(MIRRORED.deletedAt)} is null and ${missing}`;
  });
}

/** Every held row, once per missing parent. */
const HELD = sql.join(STREAMS.flatMap(heldRows), sql` union all `);

/** The held rows with since when each is held (now, for one held since the last run) and whether it is an orphan. */
const DATED = sql`select h.stream, h.id, h.reason, h.parent_stream, h.parent_id,
    coalesce(d.${column("held_since")}, now()) as changed_at, d.${column("orphaned_at")} is not null as orphan
  from (${HELD}) h left join ${heldDates} d on d.stream = h.stream and d.id = h.id`;

const PENDING = sql`select * from (${DATED}) d where not d.orphan`;
const ORPHANS = sql`select * from (${DATED}) d where d.orphan`;

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

/**
 * Dates the held rows as a run ends: a row held for the first time is held from now, one no
 * longer held loses its entry, and when `reconciled` (this run completed a reconciliation) every
 * row still held becomes an orphan. Returns how many wait for a parent and how many are orphans.
 */
export function recordHeld(reconciled: boolean): Statement<{ pending: number; orphans: number }> {
  return oneRow(
    sql`with held as materialized (select stream, id, parent_stream, parent_id from (${HELD}) h),
      dated as (
        insert into ${heldDates} (stream, id, held_since, orphaned_at)
        select distinct stream, id, now(), case when ${reconciled} then now() end from held
        on conflict (stream, id) do nothing
      ), orphaned as (
        update ${heldDates} d set orphaned_at = now()
        where ${reconciled} and d.orphaned_at is null and exists (select from held h where h.stream = d.stream and h.id = d.id)
      ), released as (
        delete from ${heldDates} d where not exists (select from held h where h.stream = d.stream and h.id = d.id)
      )
      select count(*) filter (where not h.orphan)::int as pending, count(*) filter (where h.orphan)::int as orphans
      from (select ${reconciled} or d.orphaned_at is not null as orphan
        from held h left join ${heldDates} d on d.stream = h.stream and d.id = h.id) h`,
    (r) => ({ pending: int(r.pending), orphans: int(r.orphans) }),
  );
}

export const summarizeHeld = () => summary(PENDING);
export const listHeld = (limit: number) => listing(PENDING, limit);

export const summarizeOrphans = () => summary(ORPHANS);
/** The orphans, each with the parent it lacks. */
export const listOrphans = (limit: number) =>
  manyRows(
    sql`select stream, id, reason, parent_stream, parent_id, ${AGE} as age_seconds from (${ORPHANS}) r order by stream, id limit ${limit}`,
    (r): OrphanRow => ({ ...listed(r), parent: { stream: text(r.parent_stream) as StreamName, id: text(r.parent_id) } }),
  );

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
