/**
 * The whole service as a browser meets it: a database pair of its own on the run's local
 * database server (test/global-setup.ts: PGlite in memory, or the PostgreSQL of TEST_PG_URL), a
 * book written into the source, `wrangler dev` on a free port, and a real sync (POST /api/sync)
 * into the target. Never port 8787, which `npm start` and other work use.
 *
 *   const stack = await startStack({ book });   // in beforeAll
 *   await fetch(`${stack.url}/api/aggregate/${slug}`);
 *   await stack.stop();                          // in afterAll
 */
import { inject } from "vitest";
import { createSql } from "../../src/db/client";
import { freePort, startWranglerDev } from "../../scripts/wrangler-dev";
import { type Book, writeSource } from "../support/book";

export const ADMIN_KEY = "browser-admin-key";

export interface Stack {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** Target database requests the local server has answered so far. */
  targetRequests(): Promise<number>;
  /** POST /api/sync with the admin key; throws unless it succeeds. */
  sync(): Promise<{ synced_rows: number; complete: boolean }>;
  stop(): Promise<void>;
}

export async function startStack(options: { book?: Book; vars?: Record<string, string> } = {}): Promise<Stack> {
  const db = localDbServer();
  const suffix = `t${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const target = `investments_${suffix}`;
  const source = `backoffice_${suffix}`;
  let worker: Awaited<ReturnType<typeof startWranglerDev>> | undefined;
  const stop = async () => {
    await worker?.stop();
    for (const name of [target, source])
      await fetch(`${db.url}/__drop?database=${name}`, { method: "POST" }).catch(() => undefined);
  };
  try {
    const sourceSql = createSql(db.connectionString(source));
    await sourceSql`select 1`;
    if (options.book) await writeSource(sourceSql, options.book);
    worker = await startWranglerDev({
      port: await freePort(),
      quiet: !process.env.BROWSER_DEBUG,
      isolated: true,
      timeoutMs: 180_000,
      vars: {
        DATABASE_URL: db.connectionString(target),
        SOURCE_DATABASE_URL: db.connectionString(source),
        ADMIN_API_KEY: ADMIN_KEY,
        ...options.vars,
      },
    });
    const url = worker.url;
    const sync = async () => {
      const res = await fetch(`${url}/api/sync`, { method: "POST", headers: { "X-Admin-Key": ADMIN_KEY } });
      const body = (await res.json()) as { data?: { synced_rows: number; complete: boolean } };
      if (!res.ok || !body.data) throw new Error(`sync failed: HTTP ${res.status} ${JSON.stringify(body)}`);
      return body.data;
    };
    if (options.book) {
      while (!(await sync()).complete) {
        // A run stops at its budget; the next one continues.
      }
    }
    return { url, targetRequests: () => db.requestCount(target), sync, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The run's local database server, started by the global setup. */
function localDbServer() {
  const url = `http://127.0.0.1:${inject("localDbPort")}`;
  return {
    url,
    connectionString: (database: string) => `postgres://local:local@127.0.0.1:${inject("localDbPort")}/${database}`,
    async requestCount(database: string): Promise<number> {
      const res = await fetch(`${url}/__stats`);
      const { databases } = (await res.json()) as { databases: Record<string, number> };
      return databases[database] ?? 0;
    },
  };
}
