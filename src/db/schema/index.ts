/**
 * The serving (target) database: what the public API reads and the sync writes, one file per
 * kind of table, re-exported here so that every reader imports `db/schema` and drizzle-kit reads
 * this one file (drizzle.config.ts):
 * - copies.ts, the back office's tables as served (the source's are src/db/source.ts);
 * - prices.ts, each stock's latest close, which values the holdings;
 * - metrics.ts, the stored metrics the sync derives from the copies;
 * - sync.ts, the sync's bookkeeping.
 */
export * from "./copies";
export * from "./metrics";
export * from "./prices";
export * from "./sync";
