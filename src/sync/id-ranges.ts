/**
 * The id ranges a reconciliation (src/sync/reconcile.ts) compares: uuid prefixes in hex. Random
 * uuids spread rows evenly over prefixes, so a prefix of k digits holds about 1/16^k of a table.
 *
 * The first comparison of a table is split into as many prefixes as it takes for no statement to
 * checksum more than `reconcileCompareRows` rows (src/sync/budget.ts), judged by the target's own
 * estimate of the table's size: one statement over a table of ten million rows took longer than
 * a database request may (`requestTimeoutMs`), so such a table could never be compared at all.
 */
import { sql } from "drizzle-orm";
import { manyRows, text } from "./database";
import { STREAMS, type StreamName } from "./streams";

export const MAX_UUID = "ffffffff-ffff-ffff-ffff-ffffffffffff";
/** Hex digits of the first comparison's ranges (256 of them), and of the deepest split (the first uuid group). */
export const FIRST_DEPTH = 2;
export const MAX_DEPTH = 8;
/** However large the table, the first comparison is split into at most 16^4 statements. */
const MAX_CHUNK_DIGITS = 4;

const toUuid = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
/** The first and the last uuid under a prefix. */
export const lowest = (prefix: string) => toUuid(prefix.padEnd(32, "0"));
export const highest = (prefix: string) => toUuid(prefix.padEnd(32, "f"));

/** How many hex digits the first comparison's statements are split by, for a table of about `rows` rows. */
export function chunkDigits(rows: number, maxRows: number): number {
  let digits = 0;
  while (digits < MAX_CHUNK_DIGITS && rows / 16 ** digits > maxRows) digits++;
  return digits;
}

/** Every prefix of `digits` hex digits, in order; the empty prefix (the whole table) for 0. */
export function prefixes(digits: number): string[] {
  if (digits === 0) return [""];
  return Array.from({ length: 16 ** digits }, (_, i) => i.toString(16).padStart(digits, "0"));
}

/**
 * The target's estimate of each synced table's rows (`pg_class.reltuples`, kept by autovacuum's
 * analyze), 0 for a table never analyzed. The target mirrors the source, tombstones included, so
 * it stands for both sides, and reading it costs no request of its own: it travels with the
 * reconciliation's progress.
 */
export const tableSizes = () =>
  manyRows(
    sql`select c.relname as stream, greatest(c.reltuples, 0)::bigint::text as rows from pg_class c
      where c.oid in (${sql.join(
        STREAMS.map((s) => sql`to_regclass(${s.name}::text)`),
        sql`, `,
      )})`,
    (r) => ({ stream: text(r.stream) as StreamName, rows: Number(text(r.rows)) }),
  );
