/**
 * Reuse of in-memory PGlite instances. Opening one from the template dump costs 0.4-1 s of CPU
 * (unpacking 40 MB of data directory and starting Postgres), and the test suites create two
 * databases per test and drop them when the test ends. A dropped instance is instead brought
 * back to the template's state and handed to the next database of its family: its tables
 * emptied and refilled with whatever the migrations left in them (drizzle's bookkeeping, any
 * seed rows), its sequences set back, its session reset. That takes a few tens of milliseconds.
 *
 * Nothing here knows the schema: the baseline is read from a fresh instance, so it follows
 * whatever migrations drizzle/target and drizzle/source hold. An instance whose schema a test
 * changed (DDL) no longer matches the baseline's fingerprint and is closed rather than reused.
 */
import type { PGlite } from "@electric-sql/pglite";

/** What a database of one family looks like when it is created. */
export interface Baseline {
  /** A digest of the user relations and their columns: any DDL changes it. */
  fingerprint: string;
  /** Every user table, qualified and quoted, for one TRUNCATE. */
  tables: string[];
  /** The rows of the tables the migrations left non-empty, as JSON, by table. */
  rows: Array<{ table: string; json: string }>;
  /** Every sequence's state, to set back exactly. */
  sequences: Array<{ sequence: string; value: string; called: boolean }>;
}

const USER_NAMESPACE = `n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'`;

const FINGERPRINT = `
  select md5(coalesce(string_agg(concat_ws(':', c.oid, c.relname, c.relkind,
    (select string_agg(concat_ws(' ', a.attname, a.atttypid, a.attnotnull), ',' order by a.attnum)
       from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped)), ';' order by c.oid), ''))
    || concat_ws(':', '', (select count(*) from pg_constraint), (select count(*) from pg_trigger), (select count(*) from pg_proc)) as fingerprint
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where ${USER_NAMESPACE} and c.relkind in ('r', 'p', 'S', 'v', 'm', 'i')`;

const TABLES = `
  select format('%I.%I', n.nspname, c.relname) as name
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where ${USER_NAMESPACE} and c.relkind in ('r', 'p') order by c.oid`;

const SEQUENCES = `
  select format('%I.%I', schemaname, sequencename) as name from pg_sequences
  where schemaname not in ('pg_catalog', 'information_schema') order by 1`;

/** Reads the baseline from an instance nobody has used yet. */
export async function readBaseline(db: PGlite): Promise<Baseline> {
  const [{ fingerprint }] = (await db.query<{ fingerprint: string }>(FINGERPRINT)).rows as [{ fingerprint: string }];
  const tables = (await db.query<{ name: string }>(TABLES)).rows.map((r) => r.name);
  const rows: Baseline["rows"] = [];
  for (const table of tables) {
    const [{ json }] = (await db.query<{ json: string | null }>(`select json_agg(t)::text as json from ${table} t`)).rows as [
      { json: string | null },
    ];
    if (json) rows.push({ table, json });
  }
  const sequences: Baseline["sequences"] = [];
  for (const { name } of (await db.query<{ name: string }>(SEQUENCES)).rows) {
    const [state] = (
      await db.query<{ value: string; called: boolean }>(`select last_value::text as value, is_called as called from ${name}`)
    ).rows;
    sequences.push({ sequence: name, value: state!.value, called: state!.called });
  }
  return { fingerprint, tables, rows, sequences };
}

/**
 * Brings a used instance back to the baseline; false when it cannot be (its schema changed),
 * and the caller closes it instead.
 */
export async function resetToBaseline(db: PGlite, baseline: Baseline): Promise<boolean> {
  if (db.isInTransaction()) await db.exec("ROLLBACK");
  // Session state a test may have left: settings, prepared statements, temp tables, advisory locks.
  await db.exec("DISCARD ALL");
  const [{ fingerprint }] = (await db.query<{ fingerprint: string }>(FINGERPRINT)).rows as [{ fingerprint: string }];
  if (fingerprint !== baseline.fingerprint) return false;
  await db.transaction(async (tx) => {
    if (baseline.tables.length) await tx.exec(`TRUNCATE ${baseline.tables.join(", ")} RESTART IDENTITY CASCADE`);
    for (const { table, json } of baseline.rows) {
      await tx.query(`insert into ${table} select * from json_populate_recordset(null::${table}, $1::json)`, [json]);
    }
    for (const { sequence, value, called } of baseline.sequences) {
      await tx.query("select setval($1::regclass, $2::bigint, $3)", [sequence, value, called]);
    }
  });
  // Keeps the write-ahead log, which single-user Postgres never checkpoints by itself, from
  // growing in memory with every reuse.
  await db.exec("CHECKPOINT");
  return true;
}
