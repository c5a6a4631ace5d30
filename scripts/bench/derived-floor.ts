/**
 * The floor of the metrics steps' writes, beside the copy floor of the source rows (floor.ts):
 * the rows a phase left in the tables the sync derives (partials, lots, position steps, customer
 * metrics, trade places, latest prices), written again into the same table and its indexes by
 * one `INSERT ... SELECT` per table. What a step could not go below however it computed them: no
 * read of trades, no JSON, no round trip. Measured on the target itself, in a transaction that
 * first takes those rows out (untimed) and is rolled back, so the book is left as it was; the
 * tables it wrote to are vacuumed after it, so the rolled-back copies do not slow the next phase.
 */
import type pg from "pg";

/** The derived tables by the sync step that writes them (src/sync/metrics.ts, ordinals.ts, prices.ts). */
const DERIVED = {
  holdings: ["holding_metrics", "holding_months", "holding_lots", "position_steps"],
  customers: ["customer_metrics", "customer_histories", "trade_places"],
  close: ["latest_prices"],
} as const;

export type DerivedStep = keyof typeof DERIVED;

export interface DerivedWrite {
  step: DerivedStep;
  table: string;
  rows: number;
  ms: number;
}

/** Where a phase starts: rows written after this are the phase's. */
export async function phaseMark(target: pg.Client): Promise<string> {
  // A row's xmin is the 32-bit transaction id that wrote it; age() compares them across wraparound.
  const { rows } = await target.query("select (pg_current_xact_id()::text::bigint % 4294967296)::text as xid");
  return rows[0].xid as string;
}

/** Writes the rows each derived table gained after `mark` again, timed, then rolls back. */
export async function derivedFloor(target: pg.Client, mark: string): Promise<DerivedWrite[]> {
  const writes: DerivedWrite[] = [];
  await target.query("begin");
  try {
    for (const [step, tables] of Object.entries(DERIVED) as [DerivedStep, readonly string[]][]) {
      for (const table of tables) {
        await target.query(`create temp table floor_rows (like ${table})`);
        const taken = await target.query(
          `with taken as (delete from ${table} where age(xmin) < age($1::xid) returning *) insert into floor_rows select * from taken`,
          [mark],
        );
        const started = performance.now();
        await target.query(`insert into ${table} select * from floor_rows`);
        writes.push({ step, table, rows: taken.rowCount ?? 0, ms: performance.now() - started });
        await target.query("drop table floor_rows");
      }
    }
  } finally {
    await target.query("rollback");
  }
  for (const { table } of writes.filter((w) => w.rows > 0)) await target.query(`vacuum ${table}`);
  return writes;
}

/** One line: each step's floor and the rows and time of each table it left rows in. */
export function printDerivedFloor(writes: DerivedWrite[]): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  const lines = (Object.keys(DERIVED) as DerivedStep[]).flatMap((step) => {
    const own = writes.filter((w) => w.step === step && w.rows > 0);
    if (!own.length) return [];
    const tables = own.map((w) => `${w.table} ${w.rows.toLocaleString("en-US")} rows ${seconds(w.ms)}`).join(", ");
    return [`${step} ${seconds(own.reduce((sum, w) => sum + w.ms, 0))} s (${tables})`];
  });
  return lines.join(" · ") || "no derived rows";
}
