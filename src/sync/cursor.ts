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
 */
import { getTableName } from "drizzle-orm";
import type { Sql } from "../db/client";
import { syncCursors } from "../db/schema";
import { effect, int, manyRows, oneRow, text, textOrNull, type Statement, type SyncDatabase } from "./database";
import type { Stream, StreamName } from "./streams";

const CURSORS = getTableName(syncCursors);
const C = {
  stream: syncCursors.stream.name,
  updatedAt: syncCursors.cursorUpdatedAt.name,
  id: syncCursors.cursorId.name,
  bound: syncCursors.upperBound.name,
  caughtUp: syncCursors.caughtUp.name,
  recheckFrom: syncCursors.recheckFrom.name,
};

export interface Key {
  updatedAt: string;
  id: string;
}

export interface Page {
  /** The page as a JSON array of source rows, passed to the target as it came. */
  rows: string;
  /** The last row of the page: the cursor once the page is applied. */
  last: Key | null;
  /** True when nothing more up to the upper bound is left after this page. */
  exhausted: boolean;
}

const NIL_UUID = "00000000-0000-0000-0000-000000000000";
const BEFORE_EVERYTHING: Key = { updatedAt: "-infinity", id: NIL_UUID };

/** SQL for a timestamptz as UTC ISO text with all six fractional digits, whatever the session's settings. */
export const isoMicros = (expr: string) => `to_char((${expr}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Where a stream's read starts this run. */
export interface Start {
  from: Key;
  /** True when the last run stopped mid-pass: this one continues it from the cursor. */
  resumes: boolean;
  /** The re-read point this run carries on (null when it starts a pass, or nothing awaits a re-read). */
  carried: string | null;
}

/** Where each stream's read starts this run, as a lookup; streams never synced start before everything. */
export function loadStarts(target: Sql): Statement<(stream: StreamName) => Start> {
  const recheck = `${C.caughtUp} and ${C.recheckFrom} < ${C.updatedAt}`;
  const query = target.query(
    `select ${C.stream} as stream,
       case when ${recheck} then ${isoMicros(C.recheckFrom)} else ${isoMicros(C.updatedAt)} end as updated_at,
       case when ${recheck} then '${NIL_UUID}'::uuid else ${C.id} end as id,
       ${C.caughtUp} as caught_up,
       case when ${C.caughtUp} then null else ${isoMicros(C.recheckFrom)} end as carried
     from ${CURSORS}`,
  );
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
          },
        ]),
      );
      return (stream) => starts.get(stream) ?? { from: BEFORE_EVERYTHING, resumes: false, carried: null };
    },
  };
}

/** The source's clock now: a run's upper bound (rows stamped later wait for the next run). */
export const sourceClock = (source: Sql) =>
  oneRow(source.query(`select ${isoMicros("clock_timestamp()")} as now`), (r) => text(r.now));

export async function readUpperBound(source: SyncDatabase): Promise<string> {
  const [bound] = await source.run([sourceClock(source.sql)]);
  return bound;
}

/** Each stream's cursor, for the operators' lag (src/sync/status.ts). */
export const cursorPositions = (target: Sql) =>
  manyRows(
    target.query(`select ${C.stream} as stream, ${isoMicros(C.updatedAt)} as at, ${C.id} as id from ${CURSORS} order by 1`),
    (r) => ({ stream: text(r.stream) as StreamName, key: { updatedAt: text(r.at), id: text(r.id) } as Key }),
  );

/**
 * Per stream, the first source row past its cursor (by the cursor index: one index probe each)
 * and how long it has waited, source clock minus its `updated_at` (0 when there is none); and
 * the source's clock. A stream never synced starts before everything.
 */
export function firstUnapplied(source: Sql, streams: readonly StreamName[], cursorOf: (stream: StreamName) => Key | undefined) {
  const firsts = streams.map((name, i) => {
    const [at, id] = [`$${2 * i + 1}::timestamptz`, `$${2 * i + 2}::uuid`];
    return `('${name}', (select updated_at from ${name} where (updated_at, id) > (${at}, ${id}) order by updated_at, id limit 1))`;
  });
  const params = streams.flatMap((name) => {
    const key = cursorOf(name) ?? BEFORE_EVERYTHING;
    return [key.updatedAt, key.id];
  });
  return manyRows(
    source.query(
      `with clock as (select clock_timestamp() as now), firsts(stream, first) as (values ${firsts.join(", ")})
       select stream, ${isoMicros("first")} as first_at, ${isoMicros("clock.now")} as now,
         case when first is null then 0 else greatest(0, floor(extract(epoch from clock.now - first)))::int end as lag
       from firsts, clock`,
      params,
    ),
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
      source.sql,
      stream,
      "(updated_at, id) > ($3::timestamptz, $4::uuid) and updated_at <= $5::timestamptz",
      "updated_at, id",
      limits,
      [from.updatedAt, from.id, bound],
    ),
  ]);
  return {
    rows: page.rows,
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
 * Source rows of a stream matching `where` (its parameters are `params`, numbered from $3) in
 * `order`, at most `maxRows` rows and, past the first row, at most `maxBytes` bytes of JSON. The
 * source serialises the rows itself, so the Worker passes the page on without parsing it. Also
 * used by reconciliation.
 */
export function sourceRows(
  source: Sql,
  stream: Stream,
  where: string,
  order: string,
  limits: { maxRows: number; maxBytes: number },
  params: unknown[],
): Statement<SourceRows> {
  const columns = ["id", "updated_at", "deleted_at", ...stream.columns.map((c) => c.name)];
  return oneRow(
    source.query(
      `with page as (
         select ${columns.join(", ")} from ${stream.name}
         where ${where}
         order by ${order}
         limit $1
       ),
       docs as (select row_to_json(page)::text as doc, updated_at, id from page),
       ranked as (
         select *, row_number() over w as n, sum(octet_length(doc)) over w as bytes
         from docs window w as (order by ${order})
       ),
       kept as (select * from ranked where n = 1 or bytes <= $2)
       select
         (select count(*) from page)::int as fetched,
         count(*)::int as kept,
         coalesce('[' || string_agg(doc, ',' order by n) || ']', '[]') as rows,
         (array_agg(${isoMicros("updated_at")} order by n desc))[1] as last_updated_at,
         (array_agg(id order by n desc))[1] as last_id
       from kept`,
      [limits.maxRows, limits.maxBytes, ...params],
    ),
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

/**
 * Moves a stream's cursor to the last row of an applied page, recording whether the stream is
 * caught up and the earliest point that awaits a re-read (this run's window joins the carried
 * one once the cursor is inside it); sent in that page's transaction.
 */
export function advanceCursor(target: Sql, stream: StreamName, to: Key, caughtUp: boolean, pass: Pass): Statement<void> {
  const window = `greatest($6::timestamptz, $4::timestamptz - make_interval(secs => $7::int))`;
  return effect(
    target.query(
      `insert into ${CURSORS} (${C.stream}, ${C.updatedAt}, ${C.id}, ${C.bound}, ${C.caughtUp}, ${C.recheckFrom})
       values ($1, $2, $3, $4, $5,
         case when $2::timestamptz > ${window} then least($8::timestamptz, ${window}) else $8::timestamptz end)
       on conflict (${C.stream}) do update
       set ${[C.updatedAt, C.id, C.bound, C.caughtUp, C.recheckFrom].map((c) => `${c} = excluded.${c}`).join(", ")}`,
      [stream, to.updatedAt, to.id, pass.bound, caughtUp, pass.start.from.updatedAt, pass.overlapSeconds, pass.start.carried],
    ),
  );
}
