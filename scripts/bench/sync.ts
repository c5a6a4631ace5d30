/**
 * Sync benchmark (`npx tsx scripts/bench/sync.ts`): the scaled-up demo (1,000 customers × 1,000
 * trades by default) in the source, then runSync through the real driver and the local database
 * server on PostgreSQL, as the Worker would run it (default budget, run after run until complete):
 *
 * - the initial sync;
 * - an incremental sync after 1% of every table's rows changed.
 *
 * Each is split into its data part and its stored-metrics part (the runs report `metrics_ms`).
 * Rows per second are printed beside a floor measured in the same run on the same PostgreSQL
 * server: the same rows copied database to database by `INSERT ... SELECT` over dblink (one
 * statement per table, no HTTP, no JSON, no metrics), into a second target with the same
 * schema, and the ratio of the two.
 */
import pg from "pg";
import { pathToFileURL } from "node:url";
import { generateDemoBookChunks } from "../demo/generate";
import { loadBook } from "../demo/load";
import { startLocalDbServer } from "../local-db/server";
import { createSql } from "../../src/db/client";
import { isoMicros } from "../../src/sync/cursor";
import { runSync, type SyncConfig } from "../../src/sync/run";
import { STREAMS } from "../../src/sync/streams";

const PG_URL = process.env.LOCAL_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 1000);
const TRADES_PER_CUSTOMER = Number(process.env.BENCH_TRADES_PER_CUSTOMER ?? 1000);
const CHANGED_PERCENT = 1;

/** A real change per table, so the sync has something to write. */
const CHANGES: Record<string, string> = {
  brokers: "name = name || '*'",
  staff: "name = name || '*'",
  customers: "phone = phone || '0'",
  accounts: "account_no = account_no || '0'",
  holdings: "quantity = quantity + 1",
  transactions: "fee = fee + 1",
};

interface Timed {
  rows: number;
  ms: number;
}

interface Synced extends Timed {
  runs: number;
  /** Of ms, the stored-metrics recompute. */
  metricsMs: number;
  customers: number;
}

export interface SyncBenchResult {
  sourceRows: number;
  initial: { sync: Synced; floor: Timed };
  incremental: { sync: Synced; floor: Timed };
}

/** Runs syncs back to back, as cron ticks would, until one reports it caught up. */
async function syncUntilComplete(config: SyncConfig): Promise<Synced> {
  const started = performance.now();
  const total: Synced = { rows: 0, ms: 0, runs: 0, metricsMs: 0, customers: 0 };
  for (;;) {
    const { report } = await runSync(config, { trigger: "manual", mode: "delta" });
    total.runs++;
    total.rows += report.synced_rows;
    total.metricsMs += report.metrics_ms;
    total.customers += report.metrics_recomputed;
    if (report.complete) return { ...total, ms: performance.now() - started };
  }
}

async function connect(database: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: `${PG_URL}/${database}` });
  await client.connect();
  return client;
}

/** Copies the source rows changed after `since` (all of them when null) into the floor target over dblink. */
async function dblinkCopy(floor: pg.Client, sourceDb: string, since: string | null): Promise<Timed> {
  const started = performance.now();
  let rows = 0;
  for (const stream of STREAMS) {
    // The target mirrors every row, tombstones included, as the sync leaves it.
    const columns = ["id", "deleted_at", ...stream.columns.map((c) => c.name)];
    const typeOf = (c: string) =>
      c === "id" ? "uuid" : c === "deleted_at" ? "timestamptz" : stream.columns.find((s) => s.name === c)!.type;
    const typed = [...columns.map((c) => `${c} ${typeOf(c)}`), "source_updated_at timestamptz"];
    const derived = stream.derived ? [stream.derived.name] : [];
    const select = [...columns.map((c) => `t.${c}`), "t.updated_at"];
    const join = stream.derived ? ` left join ${stream.derived.stream} p on p.id = t.${stream.derived.foreignKey}` : "";
    const remote = `select ${[...select, ...(stream.derived ? [`p.${stream.derived.column}`] : [])].join(", ")} from ${stream.name} t${join}
      ${since ? `where t.updated_at > '${since}'` : ""}`;
    const all = [...columns, "source_updated_at", ...derived];
    const result = await floor.query(
      `insert into ${stream.name} (${all.join(", ")})
       select ${all.join(", ")} from dblink($1, $2) as s(${[...typed, ...derived.map((d: string) => `${d} uuid`)].join(", ")})
       on conflict (id) do update set ${all
         .filter((c) => c !== "id")
         .map((c) => `${c} = excluded.${c}`)
         .join(", ")}`,
      [`dbname=${sourceDb}`, remote],
    );
    rows += result.rowCount ?? 0;
  }
  return { rows, ms: performance.now() - started };
}

export async function runSyncBenchmark(): Promise<SyncBenchResult> {
  const server = await startLocalDbServer({ port: 0, pgUrl: PG_URL });
  const suffix = `bench${Date.now().toString(36)}`;
  const [targetDb, sourceDb, floorDb] = [`investments_${suffix}`, `backoffice_${suffix}`, `investments_${suffix}floor`];
  const config: SyncConfig = {
    DATABASE_URL: server.connectionString(targetDb),
    SOURCE_DATABASE_URL: server.connectionString(sourceDb),
    SYNC_OVERLAP_SECONDS: 300,
  };
  try {
    const source = createSql(config.SOURCE_DATABASE_URL!);
    await createSql(server.connectionString(floorDb))`select 1`; // the server creates it with the target schema
    const counts = await loadBook(
      source,
      generateDemoBookChunks({ customers: CUSTOMERS, tradesPerCustomer: TRADES_PER_CUSTOMER }),
    );
    const sourceRows = Object.values(counts).reduce((a, b) => a + b, 0);

    const floor = await connect(floorDb);
    const sourcePg = await connect(sourceDb);
    try {
      await floor.query("create extension if not exists dblink");
      const initial = { sync: await syncUntilComplete(config), floor: await dblinkCopy(floor, sourceDb, null) };
      const { rows: clock } = await sourcePg.query(`select ${isoMicros("clock_timestamp()")} as at`);
      for (const stream of STREAMS) {
        await sourcePg.query(
          `update ${stream.name} set ${CHANGES[stream.name]}, updated_at = clock_timestamp()
           where id in (select id from ${stream.name} tablesample bernoulli (${CHANGED_PERCENT}) repeatable (7))`,
        );
      }
      const incremental = { sync: await syncUntilComplete(config), floor: await dblinkCopy(floor, sourceDb, clock[0].at) };
      return { sourceRows, initial, incremental };
    } finally {
      await Promise.all([floor.end(), sourcePg.end()]);
    }
  } finally {
    for (const db of [targetDb, sourceDb, floorDb]) {
      await fetch(`${server.url}/__drop?database=${db}`, { method: "POST" }).catch(() => undefined);
    }
    await server.close();
  }
}

const perSecond = (t: Timed) => (t.rows / t.ms) * 1000;
const seconds = (ms: number) => (ms / 1000).toFixed(2);

export function printSyncTable(r: SyncBenchResult): string {
  const lines = [
    `Sync, runSync over the HTTP driver + local database server on PostgreSQL, ${CUSTOMERS} customers × ${TRADES_PER_CUSTOMER} trades (${r.sourceRows} source rows), default budget (a run stops at 25 s, the next continues)`,
    "Floor: the same rows copied by INSERT ... SELECT over dblink between two databases of the same server.",
    "| phase | rows written | seconds | runs | rows/s | floor rows/s | ÷ floor |",
    "|---|---:|---:|---:|---:|---:|---:|",
  ];
  const row = (name: string, t: Timed, floor: Timed, runs: number | string = "") =>
    `| ${name} | ${t.rows} | ${seconds(t.ms)} | ${runs} | ${perSecond(t).toFixed(0)} | ${perSecond(floor).toFixed(0)} | ${(perSecond(t) / perSecond(floor)).toFixed(2)} |`;
  for (const [name, { sync, floor }] of [
    ["initial", r.initial],
    [`incremental, ${CHANGED_PERCENT}% of rows changed`, r.incremental],
  ] as const) {
    lines.push(
      row(`${name}: whole sync`, sync, floor, sync.runs),
      row(`${name}: data (without the metrics)`, { rows: sync.rows, ms: sync.ms - sync.metricsMs }, floor),
      `| ${name}: stored metrics of ${sync.customers} customers | | ${seconds(sync.metricsMs)} | | | | |`,
      `| ${name}: floor | ${floor.rows} | ${seconds(floor.ms)} | | ${perSecond(floor).toFixed(0)} | | |`,
    );
  }
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  console.log(printSyncTable(await runSyncBenchmark()));
}
