/**
 * Scale benchmark (`npm run bench -- scale [--trades N] [--trades-per-customer N] [--fresh]`), opt-in: not
 * part of a plain `npm run bench`, as it takes many minutes. A book of N trades (default
 * 10,000,000: 10,000 customers × 1,000) generated inside PostgreSQL, then
 *
 * - the initial sync by chained runs (scripts/bench/chain.ts: runSync again until complete,
 *   each with the default 25 s budget), with no step in between;
 * - a trading day (scripts/bench/book.ts), synced the same way: the source-to-served lag is
 *   the time from its commit until a run reports complete and the target serves its trades;
 * - a price day (1,000 closes) and a dividend season (share credits for 30% of the positions),
 *   each synced the same way, with its lag.
 *
 * Each phase is printed beside its floor: the same rows copied over dblink into a second target
 * on the same server (scripts/bench/floor.ts).
 *
 * Every run's peak heap is sampled every ~50 ms. The runs execute in Node here, not workerd;
 * the local database server runs in a child process so its buffers are not counted as the
 * sync's. Uncapped, V8 lets garbage pile up before it collects, so the samples say more about
 * its heuristics than about what a run needs; with
 * `NODE_OPTIONS="--max-old-space-size=48 --max-semi-space-size=4"` it must collect first, a run
 * that needed more would end with an out-of-memory error, and the samples are close to the need.
 */
import pg from "pg";
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createSql } from "../../src/db/client";
import { freePort } from "../wrangler-dev";
import { MACHINE_PG_URL } from "../local-db";
import type { SyncConfig } from "../../src/sync/run";
import { UNPRICED_TICKER } from "../demo/generate";
import {
  applyDividendSeason,
  applyPriceDay,
  applyTradingDay,
  type DividendSeason,
  generateSqlBook,
  type PriceDay,
  priceDayCodes,
  type TradingDay,
} from "./book";
import { profileSplit, syncUntilComplete, type Chain, type ChainedRun } from "./chain";
import { heaviestStatements, printStatements, resetStatements, type StatementCost } from "./statements";
import { type CpuSummary, printCpuSection, withCpuProfile } from "./cpu-profile";
import { asAutovacuumWould } from "./autovacuum";
import { checkPhase, type PhaseCheck, printCheck } from "./differential";
import { dblinkCopy, type Timed } from "./floor";
import { type DerivedWrite, derivedFloor, phaseMark, printDerivedFloor } from "./derived-floor";

/**
 * How far behind its last upper bound each run re-reads (SYNC_OVERLAP_SECONDS; 300 s in
 * production), and how long a phase waits for the one before it to leave that window. With 300 s
 * and phases a minute apart, the price day re-read the whole trading day (140,000 rows, 2.5 s of
 * its 3 s), which a day's changes, hours apart, never meet (scripts/bench/sync.ts does the same).
 */
export const OVERLAP_SECONDS = Number(process.env.BENCH_OVERLAP_SECONDS ?? 5);
const root = fileURLToPath(new URL("../..", import.meta.url));

export interface ScaleOptions {
  trades: number;
  tradesPerCustomer: number;
  /**
   * Rows stamped now rather than a day ago (`--fresh`): a bulk load just committed, whose rows
   * read within the overlap (BENCH_OVERLAP_SECONDS) of it are read again once the chain catches up.
   */
  fresh: boolean;
}

export interface ScaleResult {
  options: ScaleOptions;
  customers: number;
  generatedTrades: number;
  generateMs: number;
  initial: Chain;
  initialFloor: Timed;
  day: Synced<TradingDay>;
  priceDay: Synced<PriceDay>;
  season: Synced<DividendSeason>;
  served: { trades: number; metricsAfterCommit: number; dayCustomers: number; pending: number };
}

/** A change committed in the source, then synced by chained runs and copied over dblink. */
export type Synced<T> = T & {
  chain: Chain;
  floor: Timed;
  /** From the commit until the run that reported complete returned. */
  lagMs: number;
  committedAt: Date;
  /** Its heaviest statements on the target (BENCH_STATEMENTS), or none. */
  statements: StatementCost[];
  /** The derived rows it left, written again by one statement per table (derived-floor.ts). */
  derived: DerivedWrite[];
  /** Where the bench process's CPU went while it synced (BENCH_CPU_PROFILE), or null. */
  cpu: CpuSummary | null;
  /** The touched holdings' stored rows against a recompute from their ledgers, untimed. */
  check: PhaseCheck;
};

export function scaleOptions(argv: string[]): ScaleOptions {
  const { values } = parseArgs({
    args: argv,
    options: { trades: { type: "string" }, "trades-per-customer": { type: "string" }, fresh: { type: "boolean" } },
    strict: false,
  });
  const trades = Number(values.trades ?? 10_000_000);
  const tradesPerCustomer = Number(values["trades-per-customer"] ?? 1000);
  if (!Number.isInteger(trades) || !Number.isInteger(tradesPerCustomer) || trades < tradesPerCustomer)
    throw new Error("--trades and --trades-per-customer must be integers, trades at least trades-per-customer");
  return { trades, tradesPerCustomer, fresh: values.fresh === true };
}

/** The local database server as its own process, so this process's heap is the sync's. */
export async function startServerProcess(): Promise<{
  url: string;
  connectionString: (db: string) => string;
  child: ChildProcess;
}> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/local-db/cli.ts"], {
    cwd: root,
    // Not the benchmark's own NODE_OPTIONS (a heap limit set for the sync's runs).
    env: { ...process.env, NODE_OPTIONS: "", LOCAL_DB_PORT: String(port), LOCAL_PG_URL: MACHINE_PG_URL },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`local database server exited with ${code}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("local database server on")) resolve();
    });
  });
  const url = `http://127.0.0.1:${port}`;
  return { url, child, connectionString: (db) => `postgres://local:local@127.0.0.1:${port}/${db}` };
}

const log = (msg: string) => console.error(`[bench scale ${new Date().toISOString().slice(11, 19)}] ${msg}`);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const describeRun = ({ report, peakHeap, startHeap }: ChainedRun, i: number) =>
  `run ${i}: ${report.synced_rows} rows, ${report.holdings_recomputed} holdings, ${report.metrics_recomputed} customers, ${report.duration_ms} ms (metrics ${report.metrics_ms}), peak heap ${mb(peakHeap)} MB (${mb(startHeap)} at its start)${report.complete ? ", complete" : ""}`;

/** A book's databases and the clients the phases run through. */
export interface KeptBook {
  config: SyncConfig;
  sourceDb: string;
  source: pg.Client;
  target: pg.Client;
  floor: pg.Client;
  onRun?: (run: ChainedRun, index: number) => void;
}

/**
 * A change committed by `apply` in the book's source, synced by chained runs, then copied over
 * dblink into the floor database: its lag beside its floor. Before it, untimed: what waits is
 * synced once the previous phase's rows left the overlap window, and the target is vacuumed and
 * analyzed as autovacuum would have (scripts/bench/autovacuum.ts).
 */
export async function afterCommit<T>(book: KeptBook, name: string, apply: () => Promise<T>): Promise<Synced<T>> {
  const { config, sourceDb, source, target, floor, onRun } = book;
  await new Promise((resolve) => setTimeout(resolve, (OVERLAP_SECONDS + 1) * 1000));
  await syncUntilComplete(config);
  await asAutovacuumWould(target);
  const from = (await source.query("select clock_timestamp()::text as at")).rows[0].at as string;
  const mark = await phaseMark(target);
  const what = await apply();
  const at = performance.now();
  const committedAt = new Date();
  log(`${name} committed: ${JSON.stringify(what)}`);
  const counting = await resetStatements(target);
  const { result: chain, summary: cpu } = await withCpuProfile(name, () => syncUntilComplete(config, onRun));
  const lagMs = performance.now() - at;
  const statements = counting ? await heaviestStatements(target) : [];
  const copied = await dblinkCopy(floor, sourceDb, from);
  const derived = await derivedFloor(target, mark);
  const check = await checkPhase(target, from);
  log(`${name}: differential check, ${printCheck(check)}`);
  return { ...what, chain, lagMs, committedAt, floor: copied, statements, derived, cpu, check };
}

export async function runScaleBenchmark(options: ScaleOptions): Promise<ScaleResult> {
  const server = await startServerProcess();
  const suffix = `scale${Date.now().toString(36)}`;
  const [targetDb, sourceDb, floorDb] = [`investments_${suffix}`, `backoffice_${suffix}`, `investments_${suffix}floor`];
  const config: SyncConfig = {
    DATABASE_URL: server.connectionString(targetDb),
    SOURCE_DATABASE_URL: server.connectionString(sourceDb),
    SYNC_OVERLAP_SECONDS: OVERLAP_SECONDS,
  };
  const customers = Math.ceil(options.trades / options.tradesPerCustomer);
  try {
    // The server creates each database, with its schema, on first use.
    await createSql(config.SOURCE_DATABASE_URL!)`select 1`;
    await createSql(config.DATABASE_URL)`select 1`;
    await createSql(server.connectionString(floorDb))`select 1`;
    const source = new pg.Client({ connectionString: `${MACHINE_PG_URL}/${sourceDb}` });
    const target = new pg.Client({ connectionString: `${MACHINE_PG_URL}/${targetDb}` });
    const floor = new pg.Client({ connectionString: `${MACHINE_PG_URL}/${floorDb}` });
    for (const c of [source, target, floor]) c.on("error", () => undefined); // ended by the drop at the end
    await Promise.all([source.connect(), target.connect(), floor.connect()]);
    try {
      log(`generating ${customers} customers × ${options.tradesPerCustomer} trades in PostgreSQL`);
      const started = performance.now();
      const generatedTrades = await generateSqlBook(source, {
        customers,
        tradesPerCustomer: options.tradesPerCustomer,
        label: "scale",
        // A back office's history was written long before the initial sync reads it.
        ageSeconds: options.fresh ? 0 : 86_400,
        onProgress: (done) => log(`  ${done} / ${customers} customers`),
      });
      const generateMs = performance.now() - started;

      log("initial sync, chained runs");
      const initial = await syncUntilComplete(config, (run, i) => log(describeRun(run, i)));
      log("initial floor: dblink copy");
      const initialFloor = await dblinkCopy(floor, sourceDb, null);
      const book: KeptBook = { config, sourceDb, source, target, floor, onRun: (run, i) => log(describeRun(run, i)) };

      const day = await afterCommit(book, "trading day", () => applyTradingDay(source));

      // Served: the day's trades are in the target under their customer, nothing waits, the
      // touched customers' stored metrics were written after the commit.
      const { rows } = await target.query(
        `select
           (select count(*) from transactions where trade_date = $1 and customer_id is not null and deleted_at is null and rejected is null)::int as trades,
           (select count(*) from customer_metrics m where m.computed_at >= $2
              and m.customer_id in (select customer_id from transactions where trade_date = $1))::int as metrics_after_commit,
           (select count(distinct customer_id) from transactions where trade_date = $1)::int as day_customers,
           ((select count(*) from holdings_pending) + (select count(*) from metrics_pending))::int as pending`,
        [day.date, day.committedAt.toISOString()],
      );

      const priceDay = await afterCommit(book, "price day", () => applyPriceDay(source, priceDayCodes(1000, UNPRICED_TICKER)));
      const season = await afterCommit(book, "dividend season", () => applyDividendSeason(source));
      return {
        options,
        customers,
        generatedTrades,
        generateMs,
        initial,
        initialFloor,
        day,
        priceDay,
        season,
        served: {
          trades: rows[0].trades,
          metricsAfterCommit: rows[0].metrics_after_commit,
          dayCustomers: rows[0].day_customers,
          pending: rows[0].pending,
        },
      };
    } finally {
      await Promise.all([source.end(), target.end(), floor.end()]).catch(() => undefined);
    }
  } finally {
    // BENCH_KEEP=1 leaves the databases for a look at the plans (EXPLAIN on the synced book).
    if (process.env.BENCH_KEEP) log(`kept ${targetDb}, ${sourceDb}, ${floorDb}`);
    else {
      for (const db of [targetDb, sourceDb, floorDb]) {
        await fetch(`${server.url}/__drop?database=${db}`, { method: "POST" }).catch(() => undefined);
      }
    }
    // The drops run in the server's background: SIGTERM lets it finish them before it exits.
    server.child.kill("SIGTERM");
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const n = (x: number) => x.toLocaleString("en-US");

export function printScaleTable(r: ScaleResult): string {
  const heaps = (c: Chain) => c.runs.map((run) => run.peakHeap).sort((a, b) => a - b);
  const row = (name: string, c: Chain, floor: Timed, extra: string) => {
    const h = heaps(c);
    return `| ${name} | ${n(c.rows)} | ${c.runs.length} | ${seconds(c.ms)} | ${seconds(c.metricsMs)} | ${seconds(floor.ms)} | ${(c.ms / floor.ms).toFixed(1)} | ${seconds(Math.max(...c.runs.map((x) => x.report.duration_ms)))} | ${mb(h[Math.floor(h.length / 2)]!)} | ${mb(h.at(-1)!)} | ${extra} |`;
  };
  const d = r.day;
  const all = [...r.initial.runs, ...r.day.chain.runs, ...r.priceDay.chain.runs, ...r.season.chain.runs];
  const lines = [
    `Scale: ${n(r.generatedTrades)} trades (${n(r.customers)} customers × ${n(r.options.tradesPerCustomer)}), generated in PostgreSQL in ${seconds(r.generateMs)} s, stamped ${r.options.fresh ? "now (--fresh)" : "a day ago"}; runSync in Node (not workerd) over the HTTP driver + local database server (its own process) on PostgreSQL, chained: each run has the default 25 s budget and the next starts as soon as it returns. Overlap ${OVERLAP_SECONDS} s, each phase committed after the previous phase's rows left the window (BENCH_OVERLAP_SECONDS).`,
    `Trading day: ${n(d.appended)} trades appended on ${d.date} for ${n(d.customers)} customers, ${n(d.holdings)} positions moved, ${n(d.edited)} older trades edited, ${n(d.deleted)} soft-deleted.`,
    `Price day: ${n(r.priceDay.closes)} closes on ${r.priceDay.date}; ${n(r.priceDay.valuedCustomers)} customers hold a stock that got one (their valuation changes, their P&L does not).`,
    `Dividend season: ${n(r.season.credits)} share credits with ex-date ${r.season.date}, ${n(r.season.holdings)} positions moved.`,
    "Floor: the same rows copied by INSERT ... SELECT over dblink into a second target on the same server (no HTTP, no JSON, no metrics), right after each phase.",
    `Peak heap: process.memoryUsage().heapUsed sampled every ~50 ms during each run, in Node; it includes what the process held when the run started, after a full collection (${mb(Math.min(...all.map((x) => x.startHeap)))}–${mb(Math.max(...all.map((x) => x.startHeap)))} MB: the benchmark, tsx, the driver).`,
    "",
    "| phase | rows written | runs | total s | of which metrics s | floor s | total ÷ floor | longest run s | median run's peak heap MB | largest peak heap MB | source-to-served lag |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    row("initial sync", r.initial, r.initialFloor, ""),
    row("trading day", r.day.chain, r.day.floor, `${seconds(r.day.lagMs)} s from commit to complete`),
    row("price day", r.priceDay.chain, r.priceDay.floor, `${seconds(r.priceDay.lagMs)} s from commit to complete`),
    row("dividend season", r.season.chain, r.season.floor, `${seconds(r.season.lagMs)} s from commit to complete`),
    "",
    "Where each phase's time went, in seconds, over its runs (r: waiting for a read, c: computing, w: waiting for a write; src/sync/profile.ts):",
    "",
    `- initial sync: ${profileSplit(r.initial)}`,
    `- trading day: ${profileSplit(r.day.chain)}`,
    `- price day: ${profileSplit(r.priceDay.chain)}`,
    `- dividend season: ${profileSplit(r.season.chain)}`,
    "",
    "The floor of each metrics step's writes: the rows the phase left in the tables it derives, written again into the same table by one INSERT ... SELECT (scripts/bench/derived-floor.ts):",
    "",
    `- trading day: ${printDerivedFloor(r.day.derived)}`,
    `- price day: ${printDerivedFloor(r.priceDay.derived)}`,
    `- dividend season: ${printDerivedFloor(r.season.derived)}`,
    "",
    "Differential check after each phase (scripts/bench/differential.ts, untimed): every stored metrics row of the holdings the phase touched against a recompute from their ledgers; the differences must be 0.",
    "",
    `- trading day: ${printCheck(r.day.check)}`,
    `- price day: ${printCheck(r.priceDay.check)}`,
    `- dividend season: ${printCheck(r.season.check)}`,
    "",
    `Served after the trading day: ${n(r.served.trades)} of its ${n(d.appended)} new trades in the target under their customer; stored metrics written after the commit for ${n(r.served.metricsAfterCommit)} of the ${n(r.served.dayCustomers)} customers who traded; ${r.served.pending} holdings or customers still pending.`,
  ];
  const statements = [
    ...printStatements("trading day", r.day.statements),
    ...printStatements("price day", r.priceDay.statements),
    ...printStatements("dividend season", r.season.statements),
  ];
  if (statements.length)
    lines.push("", "The heaviest statements on the target per phase (pg_stat_statements, BENCH_STATEMENTS):", "", ...statements);
  lines.push(
    ...printCpuSection([
      ["trading day", r.day.cpu],
      ["price day", r.priceDay.cpu],
      ["dividend season", r.season.cpu],
    ]),
  );
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  console.log(printScaleTable(await runScaleBenchmark(scaleOptions(process.argv.slice(2)))));
}
