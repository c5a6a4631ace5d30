/**
 * The local database server's one entry point: Neon's SQL-over-HTTP protocol in front of PGlite or
 * a local PostgreSQL, for local development and the tests (README.md beside this file).
 */
export { type LocalDbServer, type LocalDbServerOptions, startLocalDbServer } from "./server";

/**
 * The machine's PostgreSQL, which the benchmarks and the load test run on (LOCAL_PG_URL
 * overrides it); the test suite and `npm start` use PGlite unless LOCAL_PG_URL is set.
 */
export const MACHINE_PG_URL = process.env.LOCAL_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
