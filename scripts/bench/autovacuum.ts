/**
 * What autovacuum would have done to a database by now, done before a bench phase (untimed). A
 * server that runs it (Neon does, with PostgreSQL's defaults) vacuums a table once enough of it
 * changed and analyzes every table that changed; this machine's PostgreSQL runs with autovacuum
 * off, so without this the target's tables would never be analyzed (every later phase planned on
 * guesses) nor vacuumed (ten million trades with no page marked all-visible and no hint bit set,
 * which the first phase to read them then set as it went, dirtying every page it read).
 *
 * Vacuumed: the tables past autovacuum's default thresholds, dead rows over 50 + 20% of the
 * table or rows inserted since its last vacuum over 1,000 + 20% (`autovacuum_vacuum_threshold`,
 * `…_scale_factor`, `…_insert_threshold`, `…_insert_scale_factor`): the initial load's tables,
 * not a trading day's ten-million-row trades. Then everything is analyzed, as the benches always
 * did: a day's rows move a small table's statistics past autovacuum's 10% long before a large one's.
 */
import type pg from "pg";

export async function asAutovacuumWould(db: pg.Client): Promise<void> {
  const { rows } = await db.query<{ name: string }>(
    `select format('%I.%I', s.schemaname, s.relname) as name
     from pg_stat_user_tables s join pg_class c on c.oid = s.relid
     where s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
        or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)`,
  );
  for (const { name } of rows) await db.query(`vacuum ${name}`);
  await db.query("analyze");
}
