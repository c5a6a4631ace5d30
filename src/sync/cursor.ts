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
 * only miss rows with `updated_at > T - D` (D = longest source transaction), so each stream
 * remembers the upper bound of the last run that read it, and the next run starts from
 * `min(cursor, upper_bound - overlap)`. With overlap >= D nothing is lost, and a run resuming a
 * long backlog (cursor far behind the bound) does not re-read anything.
 */
import type { Sql } from "../db/client";
import type { Query, Rows, SyncDatabase } from "./database";
import type { Stream, StreamName } from "./streams";

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

/** Where each stream's read starts this run; streams never synced start before everything. */
export function loadStarts(target: Sql, overlapSeconds: number): Query {
  const resume = "upper_bound - make_interval(secs => $1::int)";
  return target.query(
    `select stream,
       case when cursor_updated_at < ${resume} then ${isoMicros("cursor_updated_at")} else ${isoMicros(resume)} end as updated_at,
       case when cursor_updated_at < ${resume} then cursor_id else '${NIL_UUID}'::uuid end as id
     from sync_cursors`,
    [overlapSeconds],
  );
}

export function readStarts(rows: Rows): (stream: StreamName) => Key {
  const starts = new Map(rows.map((r) => [r.stream as StreamName, { updatedAt: r.updated_at as string, id: r.id as string }]));
  return (stream) => starts.get(stream) ?? BEFORE_EVERYTHING;
}

/** The run's upper bound, from the source's clock: rows stamped later wait for the next run. */
export async function readUpperBound(source: SyncDatabase): Promise<string> {
  const [rows] = await source.run([source.sql.query(`select ${isoMicros("clock_timestamp()")} as bound`)]);
  return rows![0]!.bound as string;
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
  const columns = ["id", "updated_at", "deleted_at", ...stream.columns.map((c) => c.name)];
  const [rows] = await source.run([
    source.sql.query(
      `with page as (
         select ${columns.join(", ")} from ${stream.name}
         where (updated_at, id) > ($1::timestamptz, $2::uuid) and updated_at <= $3::timestamptz
         order by updated_at, id
         limit $4
       ),
       docs as (select row_to_json(page)::text as doc, updated_at, id from page),
       ranked as (
         select *, row_number() over w as n, sum(octet_length(doc)) over w as bytes
         from docs window w as (order by updated_at, id)
       ),
       kept as (select * from ranked where n = 1 or bytes <= $5)
       select
         (select count(*) from page)::int as fetched,
         count(*)::int as kept,
         coalesce('[' || string_agg(doc, ',' order by n) || ']', '[]') as rows,
         (array_agg(${isoMicros("updated_at")} order by n desc))[1] as last_updated_at,
         (array_agg(id order by n desc))[1] as last_id
       from kept`,
      [from.updatedAt, from.id, bound, limits.maxRows, limits.maxBytes],
    ),
  ]);
  const page = rows![0] as { fetched: number; kept: number; rows: string; last_updated_at: string | null; last_id: string | null };
  return {
    rows: page.rows,
    last: page.last_id ? { updatedAt: page.last_updated_at!, id: page.last_id } : null,
    exhausted: page.fetched < limits.maxRows && page.kept === page.fetched,
  };
}

/** Moves a stream's cursor to the last row of an applied page; sent in that page's transaction. */
export function advanceCursor(target: Sql, stream: StreamName, to: Key, bound: string): Query {
  return target.query(
    `insert into sync_cursors (stream, cursor_updated_at, cursor_id, upper_bound) values ($1, $2, $3, $4)
     on conflict (stream) do update
     set cursor_updated_at = excluded.cursor_updated_at, cursor_id = excluded.cursor_id, upper_bound = excluded.upper_bound`,
    [stream, to.updatedAt, to.id, bound],
  );
}
