/**
 * `npx tsx scripts/local-db/cli.ts`: the local database server on its own.
 *
 * LOCAL_DB_PORT (default 4444) picks the port. The backend is PGlite with each database kept
 * under `.data/pglite/<database>`, or the PostgreSQL server at LOCAL_PG_URL when that is set.
 */
import { fileURLToPath } from "node:url";
import { startLocalDbServer } from "./index";

const port = Number(process.env.LOCAL_DB_PORT || 4444);
const pgUrl = process.env.LOCAL_PG_URL || undefined;
const dataDir = pgUrl ? undefined : fileURLToPath(new URL("../../.data/pglite", import.meta.url));

const server = await startLocalDbServer({
  port,
  pgUrl,
  dataDir,
  log: (msg) => console.error(`[local-db] ${msg}`),
});
console.log(
  `local database server on ${server.url} (${pgUrl ? `PostgreSQL at ${new URL(pgUrl).host}` : `PGlite under ${dataDir}`})`,
);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  // Closing PGlite flushes each database to disk before the process goes.
  await server.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
