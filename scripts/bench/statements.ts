/**
 * The heaviest statements of a phase, from `pg_stat_statements` when the server loads it
 * (`shared_preload_libraries`; a fresh machine's PostgreSQL does not): reset before the phase,
 * read after it. BENCH_STATEMENTS=N prints the N heaviest by total time; off by default, as it
 * needs the extension and a server restart to load it.
 */
import type pg from "pg";

export const STATEMENTS_SHOWN = Number(process.env.BENCH_STATEMENTS ?? 0);

export interface StatementCost {
  calls: number;
  totalMs: number;
  rows: number;
  /** Blocks written or dirtied: the write side of its cost. */
  dirtied: number;
  query: string;
}

/** Starts counting afresh on the target's database; false when the extension is not there. */
export async function resetStatements(target: pg.Client): Promise<boolean> {
  if (!STATEMENTS_SHOWN) return false;
  try {
    await target.query("create extension if not exists pg_stat_statements");
    await target.query("select pg_stat_statements_reset()");
    return true;
  } catch {
    return false;
  }
}

/** The heaviest statements on the target's database since the reset. */
export async function heaviestStatements(target: pg.Client): Promise<StatementCost[]> {
  const { rows } = await target.query(
    `select calls::int, total_exec_time as total_ms, rows::bigint::float8 as rows,
       (shared_blks_dirtied + shared_blks_written)::float8 as dirtied, query
     from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
     order by total_exec_time desc limit $1`,
    [STATEMENTS_SHOWN],
  );
  return rows.map((r) => ({ calls: r.calls, totalMs: r.total_ms, rows: r.rows, dirtied: r.dirtied, query: r.query }));
}

/** One line per statement: its time, calls, rows, blocks dirtied, and the start of its text. */
export function printStatements(phase: string, statements: StatementCost[]): string[] {
  return statements.map(
    (s) =>
      `- ${phase}: ${(s.totalMs / 1000).toFixed(2)} s, ${s.calls} calls, ${s.rows} rows, ${s.dirtied} blocks dirtied: ${s.query.replace(/\s+/g, " ").slice(0, 160)}`,
  );
}
