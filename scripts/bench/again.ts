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
import { profileSplit } from "./chain";
import { MACHINE_PG_URL } from "../local-db";
import { printCheck } from "./differential";
import { afterCommit, OVERLAP_SECONDS, startServerProcess } from "./scale";
import { printStatements } from "./statements";
import { printCpuSummary } from "./cpu-profile";
import { printDerivedFloor } from "./derived-floor";

/** Each phase as the scale benchmark commits it (what it committed is logged by afterCommit). */
const PHASES: Record<"day" | "season" | "price", (source: pg.Client) => Promise<object>> = {
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
  const client = (db: string) => new pg.Client({ connectionString: `${MACHINE_PG_URL}/${db}` });
  const [source, target, floor] = [client(sourceDb), client(targetDb), client(floorDb)] as const;
  await Promise.all([source.connect(), target.connect(), floor.connect()]);
  try {
    // As the scale benchmark runs each phase; what a stopped run left waiting is synced first, untimed.
    const synced = await afterCommit({ config, sourceDb, source, target, floor }, phase, () => PHASES[phase](source));
    const { chain, lagMs, floor: copied, statements, derived, cpu, check } = synced;
    return [
      `served ${(lagMs / 1000).toFixed(1)} s after its commit, ${chain.runs.length} runs; floor ${(copied.ms / 1000).toFixed(1)} s (${copied.rows} rows), ${(lagMs / copied.ms).toFixed(1)}×`,
      profileSplit(chain),
      `floor of the metrics steps' writes: ${printDerivedFloor(derived)}`,
      `differential check (untimed): ${printCheck(check)}`,
      ...printStatements(phase, statements),
      ...(cpu ? printCpuSummary(phase, cpu) : []),
    ].join("\n");
  } finally {
    await Promise.all([source.end(), target.end(), floor.end()]).catch(() => undefined);
    server.child.kill("SIGTERM");
  }
}
