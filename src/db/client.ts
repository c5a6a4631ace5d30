/**
 * Database clients over Neon's SQL-over-HTTP driver, created per request (and per cron run):
 * Worker env is only available per invocation, and an HTTP client holds no connection.
 *
 * Over HTTP there are no interactive transactions (`db.transaction()` throws in neon-http);
 * `db.batch([...])` / `sql.transaction([...])` send several statements as one atomic request.
 */
import { neon, neonConfig, types, type NeonQueryFunction } from "@neondatabase/serverless";
import { drizzle, type NeonHttpDatabase } from "drizzle-orm/neon-http";
import * as schema from "./schema";

export type Db = NeonHttpDatabase<typeof schema>;
export type Sql = NeonQueryFunction<false, false>;

const LOCAL_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|(?:.+\.)?localtest\.me)$/i;

/** True when a connection string names this machine, i.e. the local database server. */
export function isLocalHost(host: string): boolean {
  return LOCAL_HOST.test(host);
}

const neonEndpoint = neonConfig.fetchEndpoint;
// Local hosts are served by scripts/local-db, which listens where the connection string's
// host and port say; every other host goes to Neon exactly as the driver would by default.
neonConfig.fetchEndpoint = (host, port, options) => {
  if (isLocalHost(host)) return `http://${host}:${port}/sql`;
  return typeof neonEndpoint === "function" ? neonEndpoint(host, port, options) : neonEndpoint;
};

// drizzle-orm/neon-http registers these same parsers globally when a drizzle client is built;
// registering them here too makes raw `sql` results independent of which client came first.
// OIDs: date 1082, timestamp 1114, timestamptz 1184.
for (const oid of [1082, 1114, 1184]) {
  types.setTypeParser(oid, (value: string) => value);
}

export interface ClientOptions {
  /**
   * A deadline for everything the client sends, counted from its creation: a request that has
   * not been answered by then is aborted (a TimeoutError, which src/errors.ts reads as the
   * database being unavailable: 503). The API makes one client per request, so this bounds how
   * long a request can wait on a database that accepts connections but never answers. Without
   * it, the driver's fetch has no limit at all. The sync sets its own per-request timeouts.
   */
  deadlineMs?: number;
}

export function createSql(connectionString: string, options: ClientOptions = {}): Sql {
  if (options.deadlineMs === undefined) return neon(connectionString);
  return neon(connectionString, { fetchOptions: { signal: AbortSignal.timeout(options.deadlineMs) } });
}

/**
 * Drizzle over one HTTP client. Dates and timestamps arrive as strings (see above) and
 * numeric as a string too: dates stay `YYYY-MM-DD`, cursors keep their microseconds, and
 * money stays exact until it is formatted.
 */
export function createDb(connectionString: string, options: ClientOptions = {}): { db: Db; sql: Sql } {
  const sql = createSql(connectionString, options);
  return { db: drizzle(sql, { schema }), sql };
}
