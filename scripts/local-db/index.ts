/**
 * The local database server's one entry point: Neon's SQL-over-HTTP protocol in front of PGlite or
 * a local PostgreSQL, for local development and the tests (README.md beside this file).
 */
export { type LocalDbServer, type LocalDbServerOptions, startLocalDbServer } from "./server";
