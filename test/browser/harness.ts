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
  /** POST /api/sync with the admin key until a run answers (sent again while another holds the lease); throws unless one does. */
  sync(): Promise<{ synced_rows: number; complete: boolean }>;
  stop(): Promise<void>;
}

export async function startStack(
  options: {
    book?: Book;
    /** Writes the source some other way (the demo book, scripts/demo), before the first sync. */
    load?: (source: ReturnType<typeof createSql>) => Promise<unknown>;
    vars?: Record<string, string>;
  } = {},
): Promise<Stack> {
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
    if (options.load) await options.load(sourceSql);
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
    /**
     * POST /api/sync until a run answers, sent again every 250 ms for up to two and a half
     * minutes while another run holds the lease (409 sync_running) or when the connection closed
     * without an answer. A run that stops at its budget hands on to the continuation queue, whose
     * run may hold the lease when the next POST comes; on a machine starting the whole suite at
     * once even a small book's first run can stop at its budget. A run cut off with its
     * connection holds the lease until it expires (LEASE_SECONDS, 120 s).
     */
    const sync = async () => {
      const deadline = Date.now() + 150_000;
      for (;;) {
        const res = await fetch(`${url}/api/sync`, { method: "POST", headers: { "X-Admin-Key": ADMIN_KEY } }).catch(
          (err: unknown) => {
            if (Date.now() > deadline) throw err;
            return null;
          },
        );
        if (res) {
          const body = (await res.json()) as { code?: string; data?: { synced_rows: number; complete: boolean } };
          if (res.ok && body.data) return body.data;
          if (res.status !== 409 || body.code !== "sync_running" || Date.now() > deadline)
            throw new Error(`sync failed: HTTP ${res.status} ${JSON.stringify(body)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    if (options.book || options.load) {
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
