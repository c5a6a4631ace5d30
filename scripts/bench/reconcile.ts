/**
 * Reconciliation benchmark (`npm run bench -- reconcile`): the demo book scaled up (1,000
 * customers × 1,000 trades by default; BENCH_CUSTOMERS and BENCH_TRADES_PER_CUSTOMER for
 * another size) synced into the target through the local database server on PostgreSQL, then
 * a reconciliation run after run until complete, as chained runs would:
 *
 * - with no difference: what comparing everything costs (time, database requests);
 * - with 0.1% of the trades changed in the source without bumping updated_at, which no delta
 *   run can see: time, and rows repaired;
 * - with that drift again and a trading day committed while the first run goes: the day's lag
 *   from its commit to served (its trades under their customers, their metrics stored), which
 *   each run serves before it spends the rest of its budget on the comparison; the target is
 *   2 minutes.
 *
 * Floor, measured in the same run on the same server: the checksum statement run directly over
 * the whole transactions table in both databases (no HTTP, no ranges), i.e. what one comparison
 * of the largest table costs at least. Target: with nothing to repair, at most 3× the floor.
 */
import pg from "pg";
import { generateDemoBookChunks } from "../demo/generate";
import { loadBook } from "../demo/load";
import { MACHINE_PG_URL, startLocalDbServer } from "../local-db";
import { createSql } from "../../src/db/client";
import { runSync, type SyncConfig } from "../../src/sync/run";
import { applyTradingDay, type TradingDay } from "./book";

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 1000);
const TRADES_PER_CUSTOMER = Number(process.env.BENCH_TRADES_PER_CUSTOMER ?? 1000);
const DRIFT_PERCENT = 0.1;

interface FullRun {
  runs: number;
  ms: number;
  repaired: number;
  comparedRanges: number;
  repairedRanges: number;
  requests: number;
}

export interface ReconcileBenchResult {
  sourceRows: number;
  trades: number;
  noDifference: FullRun;
  drifted: FullRun & { driftedRows: number };
  /** The drift again, and a trading day committed while the first run went. */
  withDay: FullRun & { driftedRows: number; day: TradingDay; lagMs: number | null; servedAfterRun: number | null };
  floorMs: number;
}

/**
 * A reconciliation asked for (mode=full), then runs chained until one reports complete.
 * `afterRun` is called after each run (with its number) and may say the runs should note it.
 */
async function fullUntilComplete(
  config: SyncConfig,
  requests: () => number,
  hooks: { during?: Promise<unknown>; afterRun?: (run: number) => Promise<void> } = {},
): Promise<FullRun> {
  const started = performance.now();
  const before = requests();
  const total = { runs: 0, repaired: 0, comparedRanges: 0, repairedRanges: 0 };
  for (let mode: "full" | "delta" = "full"; ; mode = "delta") {
    const { report } = await runSync(config, { trigger: "manual", mode });
    if (total.runs === 0) await hooks.during;
    total.runs++;
    total.repaired += report.reconciliation?.repaired_rows ?? 0;
    total.comparedRanges += report.reconciliation?.compared_ranges ?? 0;
    total.repairedRanges += report.reconciliation?.repaired_ranges ?? 0;
    await hooks.afterRun?.(total.runs);
    if (report.complete) return { ...total, ms: performance.now() - started, requests: requests() - before };
  }
}

/** Changes DRIFT_PERCENT of the trades without bumping updated_at; returns how many. */
async function drift(source: pg.Client, seed: number): Promise<number> {
  const changed = await source.query(
    `update transactions set fee = fee + 1
     where id in (select id from transactions tablesample bernoulli (${DRIFT_PERCENT}) repeatable (${seed}))`,
  );
  return changed.rowCount ?? 0;
}

/**
 * True when the day is served: its trades all under their customers, and each of those
 * customers' stored figures counting every live trade it has, the day's included. Pending marks
 * are not asked about: a repair elsewhere in a holding marks it again, while the figures served
 * meanwhile already count the day.
 */
async function dayServed(target: pg.Client, day: TradingDay): Promise<boolean> {
  const { rows } = await target.query(
    `with day as (select distinct customer_id from transactions where trade_date = $1 and customer_id is not null)
     select
       (select count(*) from transactions where trade_date = $1 and customer_id is not null)::int as trades,
       (select count(*) from day where (select (m.stats ->> 'transaction_count')::int from customer_metrics m
            where m.customer_id = day.customer_id) is distinct from
          (select count(*) from transactions t where t.customer_id = day.customer_id and t.deleted_at is null))::int as waiting`,
    [day.date],
  );
  return rows[0].trades >= day.appended && rows[0].waiting === 0;
}

async function checksumFloor(client: pg.Client, updatedAt: string): Promise<number> {
  const started = performance.now();
  await client.query(
    `select count(*), sum(('x' || substr(md5(concat_ws('|', id::text, ${updatedAt}::text, deleted_at::text, account_id::text,
       trade_date::text, stock_code, isin_code, type, quantity::text, price::text, total_value::text, fee::text,
       personal_tax::text)), 1, 16))::bit(64)::bigint) from transactions`,
  );
  return performance.now() - started;
}

export async function runReconcileBenchmark(): Promise<ReconcileBenchResult> {
  const server = await startLocalDbServer({ port: 0, pgUrl: MACHINE_PG_URL });
  const suffix = `bench${Date.now().toString(36)}`;
  const [targetDb, sourceDb] = [`investments_${suffix}r`, `backoffice_${suffix}r`];
  const config: SyncConfig = {
    DATABASE_URL: server.connectionString(targetDb),
    SOURCE_DATABASE_URL: server.connectionString(sourceDb),
    SYNC_OVERLAP_SECONDS: 300,
  };
  const requests = () => server.requestCount(targetDb) + server.requestCount(sourceDb);
  try {
    const counts = await loadBook(
      createSql(config.SOURCE_DATABASE_URL!),
      generateDemoBookChunks({ customers: CUSTOMERS, tradesPerCustomer: TRADES_PER_CUSTOMER }),
    );
    for (let complete = false; !complete; )
      complete = (await runSync(config, { trigger: "manual", mode: "delta" })).report.complete;

    const noDifference = await fullUntilComplete(config, requests);
    const source = new pg.Client({ connectionString: `${MACHINE_PG_URL}/${sourceDb}` });
    const target = new pg.Client({ connectionString: `${MACHINE_PG_URL}/${targetDb}` });
    await Promise.all([source.connect(), target.connect()]);
    try {
      const floorMs = Math.max(
        ...(await Promise.all([checksumFloor(source, "updated_at"), checksumFloor(target, "source_updated_at")])),
      );
      const driftedRows = await drift(source, 11);
      const drifted = { ...(await fullUntilComplete(config, requests)), driftedRows };

      // The drift again, and a trading day committed while the first run goes.
      const againRows = await drift(source, 17);
      let day: TradingDay | undefined;
      let committed = 0;
      let servedAt: number | null = null;
      let servedAfterRun: number | null = null;
      const dayCommitted = applyTradingDay(source).then((d) => {
        committed = performance.now();
        day = d;
      });
      const withDay = await fullUntilComplete(config, requests, {
        during: dayCommitted,
        afterRun: async (run) => {
          if (servedAt === null && day && (await dayServed(target, day))) [servedAt, servedAfterRun] = [performance.now(), run];
        },
      });
      return {
        sourceRows: Object.values(counts).reduce((a, b) => a + b, 0),
        trades: counts.transactions ?? 0,
        noDifference,
        drifted,
        withDay: {
          ...withDay,
          driftedRows: againRows,
          day: day!,
          lagMs: servedAt === null ? null : servedAt - committed,
          servedAfterRun,
        },
        floorMs,
      };
    } finally {
      await Promise.all([source.end(), target.end()]);
    }
  } finally {
    for (const db of [targetDb, sourceDb])
      await fetch(`${server.url}/__drop?database=${db}`, { method: "POST" }).catch(() => undefined);
    await server.close();
  }
}

export function printReconcileTable(r: ReconcileBenchResult): string {
  const s = (ms: number) => (ms / 1000).toFixed(2);
  const row = (name: string, f: FullRun, extra = "") =>
    `| ${name} | ${f.runs} | ${s(f.ms)} | ${f.requests} | ${f.comparedRanges} | ${f.repairedRanges} | ${f.repaired}${extra} | ${(f.ms / r.floorMs).toFixed(1)} |`;
  return [
    `Reconciliation (mode=full until complete), runSync over the HTTP driver + local database server on PostgreSQL, ${r.sourceRows} source rows (${r.trades} trades)`,
    `Floor: one checksum of the whole transactions table in each database, directly (no HTTP, no ranges): ${s(r.floorMs)} s`,
    "| case | runs | seconds | requests | ranges compared | ranges repaired | rows repaired | ÷ floor |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    row("no difference", r.noDifference),
    row(`${DRIFT_PERCENT}% of trades changed without updated_at`, r.drifted, ` of ${r.drifted.driftedRows} drifted`),
    row(
      `the same drift again, and a trading day (${r.withDay.day.appended} trades) committed during the first run`,
      r.withDay,
      ` (${r.withDay.driftedRows} drifted, and the day's rows a comparison met before the delta did)`,
    ),
    "",
    r.withDay.lagMs === null
      ? "Trading day: not served by the time the reconciliation completed"
      : `Trading day: served ${s(r.withDay.lagMs)} s after its commit (target 120 s), after run ${r.withDay.servedAfterRun} of ${r.withDay.runs}`,
  ].join("\n");
}
