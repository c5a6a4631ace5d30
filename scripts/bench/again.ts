/**
 * One more phase on a book a scale or sync benchmark kept (`BENCH_KEEP=1`):
 * `npm run bench -- again --book <suffix> --phase day|season|price`, the suffix as the kept
 * databases' names end (`investments_<suffix>`). What a change to the sync does at 10M trades
 * without generating and syncing the book again (half an hour): the pending work is finished
 * first, untimed, then the phase is committed in the source, synced by chained runs, and copied
 * over dblink into the kept floor database, as the scale benchmark does. Each run adds a day to
 * the book, so runs compare old and new code alternated, not with the first run of a fresh book.
 */
import pg from "pg";
import { parseArgs } from "node:util";
import type { SyncConfig } from "../../src/sync/run";
import { UNPRICED_TICKER } from "../demo/generate";
import { applyDividendSeason, applyPriceDay, applyTradingDay, priceDayCodes } from "./book";
import { profileSplit, syncUntilComplete } from "./chain";
import { dblinkCopy } from "./floor";
import { startServerProcess } from "./scale";
import { heaviestStatements, printStatements, resetStatements } from "./statements";

const PG_URL = process.env.LOCAL_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
/** As the scale benchmark's (scripts/bench/scale.ts). */
const OVERLAP_SECONDS = Number(process.env.BENCH_OVERLAP_SECONDS ?? 5);
const PHASES = {
  day: (source: pg.Client) => applyTradingDay(source),
  season: (source: pg.Client) => applyDividendSeason(source),
  price: (source: pg.Client) => applyPriceDay(source, priceDayCodes(1000, UNPRICED_TICKER)),
};

export async function runAgain(argv: string[]): Promise<string> {
  const { values } = parseArgs({ args: argv, options: { book: { type: "string" }, phase: { type: "string" } }, strict: false });
  const phase = values.phase as keyof typeof PHASES;
  if (typeof values.book !== "string" || !(phase in PHASES))
    throw new Error("usage: again --book <suffix> --phase day|season|price");
  const [targetDb, sourceDb, floorDb] = [
    `investments_${values.book}`,
    `backoffice_${values.book}`,
    `investments_${values.book}floor`,
  ];
  const server = await startServerProcess();
  const config: SyncConfig = {
    DATABASE_URL: server.connectionString(targetDb),
    SOURCE_DATABASE_URL: server.connectionString(sourceDb),
    SYNC_OVERLAP_SECONDS: OVERLAP_SECONDS,
  };
  const client = (db: string) => new pg.Client({ connectionString: `${PG_URL}/${db}` });
  const [source, target, floor] = [client(sourceDb), client(targetDb), client(floorDb)] as const;
  await Promise.all([source.connect(), target.connect(), floor.connect()]);
  try {
    // What waits is finished and the last phase leaves the overlap window, untimed.
    await syncUntilComplete(config);
    await new Promise((resolve) => setTimeout(resolve, (OVERLAP_SECONDS + 1) * 1000));
    await syncUntilComplete(config);
    await target.query("analyze");
    const from = (await source.query("select clock_timestamp()::text as at")).rows[0].at as string;
    const what = await PHASES[phase](source);
    const at = performance.now();
    const counting = await resetStatements(target);
    const chain = await syncUntilComplete(config);
    const lagMs = performance.now() - at;
    const statements = counting ? await heaviestStatements(target) : [];
    const copied = await dblinkCopy(floor, sourceDb, from);
    return [
      `${phase} ${JSON.stringify(what)}`,
      `served ${(lagMs / 1000).toFixed(1)} s after its commit, ${chain.runs.length} runs; floor ${(copied.ms / 1000).toFixed(1)} s (${copied.rows} rows), ${(lagMs / copied.ms).toFixed(1)}×`,
      profileSplit(chain),
      ...printStatements(phase, statements),
    ].join("\n");
  } finally {
    await Promise.all([source.end(), target.end(), floor.end()]).catch(() => undefined);
    server.child.kill("SIGTERM");
  }
}
