/**
 * Sync benchmark (`npm run bench -- sync`): the scaled-up demo (1,000 customers × 1,000 trades
 * by default) in the source, then runSync through the real driver and the local database
 * server on PostgreSQL, as the Worker would run it: default budget, run after run until one
 * reports complete (scripts/bench/chain.ts). Phases:
 *
 * - the initial sync;
 * - "1% random edits": 1% of every table's rows changed;
 * - "trading day": 1% new trades on the next date for 30% of the customers, 0.1% of the older
 *   trades edited, a few soft deletes (scripts/bench/book.ts);
 * - "empty run": nothing changed, what a run costs before it finds work (the phases are also read
 *   beyond it);
 * - "fee edits only": the fee of 1% of old trades, buys and sells, well before each holding's last
 *   trade (scripts/bench/book.ts);
 * - "price day": one close for each of 1,000 stock codes on a new date (the demo's tickers,
 *   then made-up codes), which moves latest_prices and recomputes no customer's metrics;
 * - "dividend season": a share credit for 30% of the positions on a new date
 *   (scripts/bench/book.ts), each continuing its holding's stored partial;
 * - one new trade for a customer with 100,000 trades: in a small holding, then in the large one;
 * - reads on the synced book: performance, deep history pages, invalidation (scripts/bench/reads.ts).
 *
 * Each phase is printed beside a floor measured in the same run on the same PostgreSQL server:
 * the same changed rows copied database to database by `INSERT ... SELECT` over dblink (one
 * statement per table, no HTTP, no JSON, no metrics) into a second target with the same
 * schema. The machine is shared, so the ratio to the floor is the figure to compare, not the
 * seconds.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { pathToFileURL } from "node:url";
import { generateDemoBookChunks, UNPRICED_TICKER } from "../demo/generate";
import { loadBook } from "../demo/load";
import { MACHINE_PG_URL, startLocalDbServer } from "../local-db";
import { createSql } from "../../src/db/client";
import { isoMicros } from "../../src/sync/cursor";
import { render } from "../../src/sync/database";
import type { SyncConfig } from "../../src/sync/run";
import { STREAMS, type StreamName } from "../../src/sync/streams";
import {
  applyDividendSeason,
  applyFeeEdits,
  applyPriceDay,
  applyTradingDay,
  type DividendSeason,
  type FeeEdits,
  generateSqlBook,
  type PriceDay,
  priceDayCodes,
  type TradingDay,
} from "./book";
import { profileSplit, syncUntilComplete, type Chain } from "./chain";
import { asAutovacuumWould } from "./autovacuum";
import { type CpuSummary, printCpuSection, withCpuProfile } from "./cpu-profile";
import { checkPhase, type PhaseCheck, printCheck } from "./differential";
import { dblinkCopy, type Timed } from "./floor";
import { measureReads, printReads, type ReadsResult } from "./reads";
import { heaviestStatements, printStatements, resetStatements, type StatementCost } from "./statements";

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 1000);
const TRADES_PER_CUSTOMER = Number(process.env.BENCH_TRADES_PER_CUSTOMER ?? 1000);
const CHANGED_PERCENT = 1;
/**
 * How far behind its last upper bound each run re-reads (SYNC_OVERLAP_SECONDS; 300 s in
 * production). The phases here follow each other within seconds, so with 300 s every phase would
 * re-read the rows of the one before it, which a day's changes, arriving long after the last
 * run, do not. Nothing writes to the source while a run reads it, so a short overlap loses nothing.
 */
const OVERLAP_SECONDS = Number(process.env.BENCH_OVERLAP_SECONDS ?? 5);
/** The large customer: one holding with most of its trades, three small ones. */
const BIG_TRADES = Number(process.env.BENCH_BIG_TRADES ?? 100_000);
const BIG_HOLDING = BIG_TRADES - 3 * Math.floor(BIG_TRADES / 100);

/** A real change per table, so the sync has something to write. */
const CHANGES: Record<StreamName, string> = {
  brokers: "name = name || '*'",
  staff: "name = name || '*'",
  customers: "phone = phone || '0'",
  accounts: "account_no = account_no || '0'",
  holdings: "quantity = quantity + 1",
  transactions: "fee = fee + 1",
  corporate_actions: "pay_date = pay_date + 1",
  stock_prices: "close_price = close_price + 10",
};

/** A price day: one close for each of this many stock codes (the demo's tickers, then made-up codes). */
const PRICE_DAY_CODES = 1000;

export interface Phase {
  name: string;
  sync: Chain;
  floor: Timed;
  /** Its heaviest statements on the target (BENCH_STATEMENTS), or none. */
  statements: StatementCost[];
  /** Where the bench process's CPU went while it synced (BENCH_CPU_PROFILE), or null. */
  cpu: CpuSummary | null;
  /** The touched holdings' stored rows against a recompute from their ledgers, untimed. */
  check: PhaseCheck;
}

export interface OneTrade {
  name: string;
  customerTrades: number;
  /** Live trades of the holding the new trade joined. */
  holdingTrades: number;
  /** Those dated after the holding's latest date before the trade: what the holdings step reads and matches. */
  tradesRead: number;
  sync: Chain;
  floor: Timed;
  /** The holding's trades read straight from PostgreSQL as JSON (no HTTP, no P&L): the read alone. */
  readFloorMs: number;
}

export interface SyncBenchResult {
  sourceRows: number;
  phases: Phase[];
  tradingDay: TradingDay;
  feeEdits: FeeEdits;
  priceDay: PriceDay;
  season: DividendSeason;
  oneTrade: OneTrade[];
  reads: ReadsResult;
}

async function connect(database: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: `${MACHINE_PG_URL}/${database}` });
  // Dropping the databases at the end ends this connection too: not an error worth a crash.
  client.on("error", () => undefined);
  await client.connect();
  return client;
}

const log = (msg: string) => console.error(`[bench sync ${new Date().toISOString().slice(11, 19)}] ${msg}`);

export async function runSyncBenchmark(): Promise<SyncBenchResult> {
  const server = await startLocalDbServer({ port: 0, pgUrl: MACHINE_PG_URL });
  const suffix = `bench${Date.now().toString(36)}`;
  const [targetDb, sourceDb, floorDb] = [`investments_${suffix}`, `backoffice_${suffix}`, `investments_${suffix}floor`];
  const config: SyncConfig = {
    DATABASE_URL: server.connectionString(targetDb),
    SOURCE_DATABASE_URL: server.connectionString(sourceDb),
    SYNC_OVERLAP_SECONDS: OVERLAP_SECONDS,
  };
  try {
    const source = createSql(config.SOURCE_DATABASE_URL!);
    // The server creates each database, with its schema, on first use.
    await createSql(server.connectionString(floorDb))`select 1`;
    await createSql(config.DATABASE_URL)`select 1`;
    log(`loading ${CUSTOMERS} × ${TRADES_PER_CUSTOMER} demo trades`);
    const counts = await loadBook(
      source,
      generateDemoBookChunks({ customers: CUSTOMERS, tradesPerCustomer: TRADES_PER_CUSTOMER }),
    );
    const sourceRows = Object.values(counts).reduce((a, b) => a + b, 0);

    const floor = await connect(floorDb);
    const sourcePg = await connect(sourceDb);
    const targetPg = await connect(targetDb);
    const clock = async () =>
      (await sourcePg.query(`select ${render(isoMicros(sql`clock_timestamp()`)).sql} as at`)).rows[0].at as string;
    /** Lets the overlap window pass the last changes, then an untimed run moves every bound past them. */
    const settle = async () => {
      await new Promise((resolve) => setTimeout(resolve, (OVERLAP_SECONDS + 1) * 1000));
      await syncUntilComplete(config);
    };
    /** What autovacuum would have done to the target by the next phase (scripts/bench/autovacuum.ts). Not timed. */
    const maintained = () => asAutovacuumWould(targetPg);
    /** Syncs what changed since `since`, then copies the same rows over dblink: the floor. */
    const phase = async (name: string, since: string | null): Promise<Phase> => {
      log(`${name}: syncing`);
      const counting = await resetStatements(targetPg);
      const { result: sync, summary: cpu } = await withCpuProfile(name, () => syncUntilComplete(config));
      const statements = counting ? await heaviestStatements(targetPg) : [];
      log(`${name}: ${sync.runs.length} runs, ${(sync.ms / 1000).toFixed(1)} s; floor`);
      const copied = await dblinkCopy(floor, sourceDb, since);
      const check = await checkPhase(targetPg, since);
      log(`${name}: differential check, ${printCheck(check)}`);
      await maintained();
      return { name, sync, floor: copied, statements, cpu, check };
    };
    try {
      const phases = [await phase("initial", null)];

      await settle();
      let since = await clock();
      for (const stream of STREAMS) {
        await sourcePg.query(
          `update ${stream.name} set ${CHANGES[stream.name]}, updated_at = clock_timestamp()
           where id in (select id from ${stream.name} tablesample bernoulli (${CHANGED_PERCENT}) repeatable (7))`,
        );
      }
      phases.push(await phase(`${CHANGED_PERCENT}% random edits`, since));

      await settle();
      since = await clock();
      const tradingDay = await applyTradingDay(sourcePg);
      phases.push(await phase("trading day", since));

      // Nothing changed: what a run costs before it finds work, which the phases below are read beyond.
      await settle();
      since = await clock();
      phases.push(await phase("empty run", since));

      await settle();
      since = await clock();
      const feeEdits = await applyFeeEdits(sourcePg);
      phases.push(await phase("fee edits only", since));

      // A price day: one close per stock code on a new date; a valuation, never a P&L recompute.
      await settle();
      since = await clock();
      const priceDay = await applyPriceDay(sourcePg, priceDayCodes(PRICE_DAY_CODES, UNPRICED_TICKER));
      phases.push(await phase(`price day (${n(priceDay.closes)} closes)`, since));

      await settle();
      since = await clock();
      const season = await applyDividendSeason(sourcePg);
      phases.push(await phase("dividend season", since));

      // A customer with 100,000 trades: synced in full first, then one trade at a time.
      log(`one large customer: ${BIG_TRADES} trades`);
      await generateSqlBook(sourcePg, {
        customers: 1,
        tradesPerCustomer: BIG_TRADES,
        holdingsPerCustomer: 4,
        accountsPerCustomer: 1,
        firstHoldingTrades: BIG_HOLDING,
        label: "large",
      });
      await syncUntilComplete(config);
      await maintained();
      const { rows: holdings } = await sourcePg.query(
        `select h.account_id, h.stock_code, count(*)::int as trades
         from accounts a join transactions h on h.account_id = a.id
         where a.account_no like 'large-%' and h.deleted_at is null
         group by 1, 2 order by 3`,
      );
      const oneTrade: OneTrade[] = [];
      for (const [name, holding] of [
        ["one new trade in a small holding", holdings[0]],
        ["one new trade in the large holding", holdings.at(-1)],
      ] as const) {
        await settle();
        const since = await clock();
        const { rows: latest } = await sourcePg.query(
          "select max(trade_date)::text as at from transactions where account_id = $1 and stock_code = $2 and deleted_at is null",
          [holding.account_id, holding.stock_code],
        );
        await sourcePg.query(
          `insert into transactions (account_id, trade_date, stock_code, isin_code, type, quantity, price, total_value, fee, personal_tax)
           select account_id, trade_date + 1, stock_code, isin_code, 'buy', 100, price, 100 * price, round(100 * price * 0.0015), 0
           from transactions where account_id = $1 and stock_code = $2 order by trade_date desc limit 1`,
          [holding.account_id, holding.stock_code],
        );
        log(`${name}: syncing`);
        const sync = await syncUntilComplete(config);
        const { rows: live } = await targetPg.query(
          `select count(*) filter (where t.stock_code = $2)::int as n, count(*)::int as customer,
             count(*) filter (where t.stock_code = $2 and t.trade_date > $3::date)::int as read
           from transactions t where t.customer_id = (select customer_id from accounts where id = $1)
             and t.account_id = $1 and t.deleted_at is null and t.rejected is null`,
          [holding.account_id, holding.stock_code, latest[0].at],
        );
        const reads: number[] = [];
        for (let i = 0; i < 3; i++) {
          const t0 = performance.now();
          await targetPg.query(
            `select coalesce(json_agg(json_build_array(t.id, t.account_id, t.trade_date, t.stock_code, t.type, t.quantity,
               t.total_value::text, t.fee::text, t.personal_tax::text)), '[]')::text
             from transactions t where t.account_id = $1 and t.stock_code = $2 and t.deleted_at is null and t.rejected is null`,
            [holding.account_id, holding.stock_code],
          );
          reads.push(performance.now() - t0);
        }
        oneTrade.push({
          name,
          customerTrades: live[0].customer,
          holdingTrades: live[0].n,
          tradesRead: live[0].read,
          sync,
          floor: await dblinkCopy(floor, sourceDb, since),
          readFloorMs: reads.sort((a, b) => a - b)[1]!,
        });
      }
      log("reads: performance, deep history pages, invalidation");
      const { rows: slugs } = await targetPg.query(
        `select
           (select c.slug from customers c join accounts a on a.customer_id = c.id where a.account_no like 'large-%' limit 1) as large,
           (select c.slug from customers c join transactions t on t.customer_id = c.id
            group by c.slug order by abs(count(*) - 1000), c.slug limit 1) as typical,
           (select array_agg(stock_code order by n) from (select t.stock_code, count(*) as n
            from accounts a join transactions t on t.account_id = a.id where a.account_no like 'large-%' group by 1) c) as large_codes`,
      );
      const codes = slugs[0].large_codes as string[];
      const reads = await measureReads(config.DATABASE_URL, {
        ...slugs[0],
        largeCodes: { most: codes.at(-1)!, fewest: codes[0]! },
      });
      return { sourceRows, phases, tradingDay, feeEdits, priceDay, season, oneTrade, reads };
    } finally {
      await Promise.all([floor.end(), sourcePg.end(), targetPg.end()]);
    }
  } finally {
    // BENCH_KEEP=1 leaves the databases for a look at the plans (EXPLAIN on the synced book).
    if (process.env.BENCH_KEEP) log(`kept ${targetDb}, ${sourceDb}, ${floorDb}`);
    else {
      for (const db of [targetDb, sourceDb, floorDb]) {
        await fetch(`${server.url}/__drop?database=${db}`, { method: "POST" }).catch(() => undefined);
      }
    }
    await server.close();
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const n = (x: number) => x.toLocaleString("en-US");

export function printSyncTable(r: SyncBenchResult): string {
  const d = r.tradingDay;
  const lines = [
    `Sync, runSync over the HTTP driver + local database server on PostgreSQL, ${n(CUSTOMERS)} customers × ${n(TRADES_PER_CUSTOMER)} demo trades (${n(r.sourceRows)} source rows), default budget: a run stops at 25 s and the next continues, until one reports complete. Overlap ${OVERLAP_SECONDS} s, and each phase's changes made after the previous phase's rows left the window (BENCH_OVERLAP_SECONDS).`,
    "Floor: the same changed rows copied by INSERT ... SELECT over dblink between two databases of the same server (no HTTP, no JSON, no metrics), measured right after each phase.",
    `Trading day: ${n(d.appended)} trades appended on ${d.date} for ${n(d.customers)} customers, ${n(d.holdings)} positions moved, ${n(d.edited)} older trades edited, ${n(d.deleted)} soft-deleted.`,
    `Price day: ${n(r.priceDay.closes)} closes on ${r.priceDay.date}; ${n(r.priceDay.valuedCustomers)} customers hold a stock that got one (their valuation changes, their P&L does not).`,
    `Fee edits only: the fee of ${n(r.feeEdits.edited)} old trades (${n(r.feeEdits.sells)} sells) raised by 1 đồng, each at least 30 days before its holding's last trade.`,
    `Dividend season (share credits only): ${n(r.season.credits)} share credits with ex-date ${r.season.date}, ${n(r.season.holdings)} positions moved.`,
    "",
    "| phase | runs | rows written | trades changed | whole s | of which metrics s | floor s | whole ÷ floor | beyond the empty run ÷ floor | data (whole − metrics) ÷ floor | holdings recomputed | customers merged | metrics ms per changed trade |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const emptyMs = r.phases.find((p) => p.name === "empty run")?.sync.ms ?? 0;
  for (const { name, sync, floor } of r.phases) {
    lines.push(
      `| ${name} | ${sync.runs.length} | ${n(sync.rows)} | ${n(sync.trades)} | ${seconds(sync.ms)} | ${seconds(sync.metricsMs)} | ${seconds(floor.ms)} | ${(sync.ms / floor.ms).toFixed(1)} | ${((sync.ms - emptyMs) / floor.ms).toFixed(1)} | ${((sync.ms - sync.metricsMs) / floor.ms).toFixed(1)} | ${n(sync.holdings)} | ${n(sync.customers)} | ${sync.trades ? (sync.metricsMs / sync.trades).toFixed(2) : "—"} |`,
    );
  }
  lines.push(
    "",
    "Differential check after each phase (scripts/bench/differential.ts, untimed): every stored metrics row of the holdings the phase touched against a recompute from their ledgers; the differences must be 0.",
    "",
    ...r.phases.map(({ name, check }) => `- ${name}: ${printCheck(check)}`),
  );
  lines.push(
    "",
    `One new trade for a customer with ${n(BIG_TRADES)} trades (holdings of ${n(BIG_HOLDING)}, and three of ${n((BIG_TRADES - BIG_HOLDING) / 3)}); read floor: that holding's trades read as JSON straight from PostgreSQL (median of 3, no HTTP, no P&L).`,
    "",
    "| case | customer's trades | the holding's trades | trades the recompute read (after the holding's latest date) | holdings recomputed | customers merged | metrics ms | read floor ms (the holding's trades) | whole run ms | dblink floor ms |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const o of r.oneTrade) {
    lines.push(
      `| ${o.name} | ${n(o.customerTrades)} | ${n(o.holdingTrades)} | ${n(o.tradesRead)} | ${o.sync.holdings} | ${o.sync.customers} | ${o.sync.metricsMs.toFixed(0)} | ${o.readFloorMs.toFixed(0)} | ${o.sync.ms.toFixed(0)} | ${o.floor.ms.toFixed(0)} |`,
    );
  }
  lines.push(
    "",
    "Where each phase's time went, in seconds, over its runs (r: waiting for a read, c: computing, w: waiting for a write; src/sync/profile.ts):",
    "",
    ...r.phases.map(({ name, sync }) => `- ${name}: ${profileSplit(sync)}`),
    ...r.oneTrade.map((o) => `- ${o.name}: ${profileSplit(o.sync)}`),
  );
  const statements = r.phases.flatMap(({ name, statements }) => printStatements(name, statements));
  if (statements.length)
    lines.push("", "The heaviest statements on the target per phase (pg_stat_statements, BENCH_STATEMENTS):", "", ...statements);
  lines.push(
    ...printCpuSection(
      r.phases.map(({ name, cpu }) => [name, cpu] as const),
      "its local database server included; ",
    ),
  );
  lines.push("", printReads(r.reads));
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  console.log(printSyncTable(await runSyncBenchmark()));
}
