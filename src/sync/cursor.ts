/**
 * Keyset cursors over `(updated_at, id)`: where each stream's next read starts, and reading one
 * page of a stream from the source.
 *
 * Timestamps travel as ISO text with microseconds, formatted by Postgres itself, and never
 * through a JS Date (which keeps milliseconds): a cursor that loses precision skips or repeats
 * rows at its boundary.
 *
 * Where a run starts: a row whose transaction commits late carries an `updated_at` earlier than
 * its commit, possibly behind a cursor that already moved past it. A read at source time T can
 * only miss rows with `updated_at > T - D` (D = longest source transaction, the overlap), and a
 * run's reads all happen after its upper bound B, so a run that read from S to X may have missed
 * rows in the window (max(S, B - D), X]. Each stream keeps the earliest such point since its last
 * re-read (`recheck_from`):
 *
 * - a run continuing a pass its predecessor stopped on the budget starts at the cursor and
 *   carries the point on, so a long backlog younger than D is read once, not once per run;
 * - a run after the stream caught up starts at `min(cursor, recheck_from)`, re-reading the
 *   windows of the whole pass once, and keeps only its own window.
 *
 * With an overlap >= D nothing is lost.
 *
 * A page whose transaction takes longer than a request may fails the run, and every retry would
 * send the same page. So a page that timed out halves the stream's page size (`shrinkPages`) for
 * the rest of its backlog: the next run reads smaller pages, and the size returns to the budget's
 * once the stream catches up.
 */
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { syncCursors } from "../db/schema";
import { effect, int, manyRows, oneRow, text, textOrNull, type Statement, type SyncDatabase } from "./database";
import type { Stream, StreamName } from "./streams";

const C = syncCursors;

/** Columns by their bare names, for an insert's column list. */
const names = (columns: AnyPgColumn[]) =>
  sql.join(
    columns.map((c) => sql.identifier(c.name)),
    sql`, `,
  );

export interface Key {
  updatedAt: string;
  id: string;
}

export interface Page {
  /** The page as a JSON array of source rows, passed to the target as it came. */
  rows: string;
  /** How many rows it holds. */
  count: number;
  /** The last row of the page: the cursor once the page is applied. */
  last: Key | null;
  /** True when nothing more up to the upper bound is left after this page. */
  exhausted: boolean;
}

const NIL_UUID = "00000000-0000-0000-0000-000000000000";
const BEFORE_EVERYTHING: Key = { updatedAt: "-infinity", id: NIL_UUID };

/**
 * SQL for a timestamptz (a column or SQL) as UTC ISO text with all six fractional digits, whatever
 * the session's settings; `-infinity` (a cursor before everything) as itself, where `to_char` gives null.
 */
export const isoMicros = (expr: SQLWrapper): SQL =>
  sql`coalesce(to_char((${expr}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), (${expr})::text)`;

/** Where a stream's read starts this run. */
export interface Start {
  from: Key;
  /** True when the last run stopped mid-pass: this one continues it from the cursor. */
  resumes: boolean;
  /** The re-read point this run carries on (null when it starts a pass, or nothing awaits a re-read). */
  carried: string | null;
  /** The most rows a page may have, when a page timed out in this backlog (null: the budget's). */
  pageRows: number | null;
}

/** Where each stream's read starts this run, as a lookup; streams never synced start before everything. */
export function loadStarts(): Statement<(stream: StreamName) => Start> {
  const recheck = sql`${C.caughtUp} and ${C.recheckFrom} < ${C.cursorUpdatedAt}`;
  const query = sql`select ${C.stream} as stream,
       case when ${recheck} then ${isoMicros(C.recheckFrom)} else ${isoMicros(C.cursorUpdatedAt)} end as updated_at,
       case when ${recheck} then ${NIL_UUID}::uuid else ${C.cursorId} end as id,
       ${C.caughtUp} as caught_up,
       case when ${C.caughtUp} then null else ${isoMicros(C.recheckFrom)} end as carried,
       ${C.pageRows} as page_rows
     from ${syncCursors}`;
  return {
    query,
    decode(rows) {
      const starts = new Map(
        rows.map((r): [string, Start] => [
          text(r.stream),
          {
            from: { updatedAt: text(r.updated_at), id: text(r.id) },
            resumes: r.caught_up === false,
            carried: textOrNull(r.carried),
            pageRows: r.page_rows === null ? null : int(r.page_rows),
          },
        ]),
      );
      return (stream) => starts.get(stream) ?? { from: BEFORE_EVERYTHING, resumes: false, carried: null, pageRows: null };
    },
  };
}

/** The source's clock now: a run's upper bound (rows stamped later wait for the next run). */
export const sourceClock = () => oneRow(sql`select ${isoMicros(sql`clock_timestamp()`)} as now`, (r) => text(r.now));

export async function readUpperBound(source: SyncDatabase): Promise<string> {
  const [bound] = await source.run([sourceClock()]);
  return bound;
}

/** Each stream's cursor, for the operators' lag (src/sync/status.ts). */
export const cursorPositions = () =>
  manyRows(
    sql`select ${C.stream} as stream, ${isoMicros(C.cursorUpdatedAt)} as at, ${C.cursorId} as id from ${syncCursors} order by 1`,
    (r) => ({ stream: text(r.stream) as StreamName, key: { updatedAt: text(r.at), id: text(r.id) } as Key }),
  );

/**
 * Per stream, the first source row past its cursor (by the cursor index: one index probe each)
 * and how long it has waited, source clock minus its `updated_at` (0 when there is none); and
 * the source's clock. A stream never synced starts before everything.
 */
export function firstUnapplied(streams: readonly Stream[], cursorOf: (stream: StreamName) => Key | undefined) {
  const firsts = streams.map(({ name, table }) => {
    const key = cursorOf(name) ?? BEFORE_EVERYTHING;
    return sql`(${name}::text, (select updated_at from ${table}
      where (updated_at, id) > (${key.updatedAt}::timestamptz, ${key.id}::uuid) order by updated_at, id limit 1))`;
  });
  return manyRows(
    sql`with clock as (select clock_timestamp() as now), firsts(stream, first) as (values ${sql.join(firsts, sql`, `)})
       select stream, ${isoMicros(sql`first`)} as first_at, ${isoMicros(sql`clock.now`)} as now,
         case when first is null then 0 else greatest(0, floor(extract(epoch from clock.now - first)))::int end as lag
       from firsts, clock`,
    (r) => ({ stream: text(r.stream) as StreamName, firstAt: textOrNull(r.first_at), now: text(r.now), lag: int(r.lag) }),
  );
}

/**
 * One page: rows after `from` and at or before `bound`, in key order, at most `maxRows` rows and,
 * past the first row, at most `maxBytes` bytes of JSON. The source serialises the rows itself,
 * so the Worker passes the page on without parsing it.
 */
export async function readPage(
  source: SyncDatabase,
  stream: Stream,
  from: Key,
  bound: string,
  limits: { maxRows: number; maxBytes: number },
): Promise<Page> {
  const [page] = await source.run([
    sourceRows(
      stream,
      sql`(updated_at, id) > (${from.updatedAt}::timestamptz, ${from.id}::uuid) and updated_at <= ${bound}::timestamptz`,
      sql`updated_at, id`,
      limits,
    ),
  ]);
  return {
    rows: page.rows,
    count: page.kept,
    last: page.lastId ? { updatedAt: page.lastUpdatedAt!, id: page.lastId } : null,
    exhausted: page.fetched < limits.maxRows && page.kept === page.fetched,
  };
}

interface SourceRows {
  fetched: number;
  kept: number;
  /** A JSON array of source rows. */
  rows: string;
  lastUpdatedAt: string | null;
  lastId: string | null;
}

/**
 * Source rows of a stream matching `where` in `order`, at most `maxRows` rows and, past the first row, at most `maxBytes` bytes of JSON. The
 * source serialises the rows itself, so the Worker passes the page on without parsing it. Also
 * used by reconciliation.
 */
export function sourceRows(
  stream: Stream,
  where: SQL,
  order: SQL,
  limits: { maxRows: number; maxBytes: number },
): Statement<SourceRows> {
  const columns = ["id", "updated_at", "deleted_at", ...stream.columns.map((c) => c.name)].map((c) => sql.identifier(c));
  return oneRow(
    sql`with page as (
         select ${sql.join(columns, sql`, `)} from ${stream.table}
         where ${where}
         order by ${order}
         limit ${limits.maxRows}
       ),
       docs as (select row_to_json(page)::text as doc, updated_at, id from page),
       ranked as (
         select *, row_number() over w as n, sum(octet_length(doc)) over w as bytes
         from docs window w as (order by ${order})
       ),
       kept as (select * from ranked where n = 1 or bytes <= ${limits.maxBytes})
       select
         (select count(*) from page)::int as fetched,
         count(*)::int as kept,
         coalesce('[' || string_agg(doc, ',' order by n) || ']', '[]') as rows,
         (array_agg(${isoMicros(sql`updated_at`)} order by n desc))[1] as last_updated_at,
         (array_agg(id order by n desc))[1] as last_id
       from kept`,
    (r) => ({
      fetched: int(r.fetched),
      kept: int(r.kept),
      rows: text(r.rows),
      lastUpdatedAt: textOrNull(r.last_updated_at),
      lastId: textOrNull(r.last_id),
    }),
  );
}

/** A stream's progress in one run: where it started, its upper bound and the overlap D. */
export interface Pass {
  start: Start;
  bound: string;
  overlapSeconds: number;
}

/** `set` for an upsert of `columns` into sync_cursors: each takes the value the insert would have. */
const fromExcluded = (columns: AnyPgColumn[]) =>
  sql.join(
    columns.map((c) => sql`${sql.identifier(c.name)} = excluded.${sql.identifier(c.name)}`),
    sql`, `,
  );

/**
 * Moves a stream's cursor to the last row of an applied page, recording whether the stream is
 * caught up and the earliest point that awaits a re-read (this run's window joins the carried
 * one once the cursor is inside it); sent in that page's transaction. A stream that caught up
 * reads its next backlog in pages of the budget's size again.
 */
export function advanceCursor(stream: StreamName, to: Key, caughtUp: boolean, pass: Pass): Statement<void> {
  const window = sql`greatest(${pass.start.from.updatedAt}::timestamptz, ${pass.bound}::timestamptz - make_interval(secs => ${pass.overlapSeconds}::int))`;
  const carried = sql`${pass.start.carried}::timestamptz`;
  const updated = [C.cursorUpdatedAt, C.cursorId, C.upperBound, C.caughtUp, C.recheckFrom];
  return effect(
    sql`insert into ${syncCursors} (${names([C.stream, ...updated])})
       values (${stream}, ${to.updatedAt}, ${to.id}, ${pass.bound}, ${caughtUp},
         case when ${to.updatedAt}::timestamptz > ${window} then least(${carried}, ${window}) else ${carried} end)
       on conflict (${names([C.stream])}) do update
       set ${fromExcluded(updated)},
         ${sql.identifier(C.pageRows.name)} = case when ${caughtUp} then null else ${C.pageRows} end`,
  );
}

/**
 * After a page of `rows` rows timed out: the stream's pages hold half as many from now until it
 * catches up. The cursor stays where the last applied page left it; a stream that has none yet
 * gets one where its pass started, mid-pass, so the next run continues the same pass.
 */
export function shrinkPages(stream: StreamName, rows: number, pass: Pass): Statement<void> {
  const { from, carried } = pass.start;
  return effect(
    sql`insert into ${syncCursors} (${names([C.stream, C.cursorUpdatedAt, C.cursorId, C.upperBound, C.caughtUp, C.recheckFrom, C.pageRows])})
       values (${stream}, ${from.updatedAt}, ${from.id}, ${pass.bound}, false, ${carried}, ${Math.max(1, Math.floor(rows / 2))})
       on conflict (${names([C.stream])}) do update set ${fromExcluded([C.pageRows])}`,
  );
}
