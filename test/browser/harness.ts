/**
 * The whole service as a browser meets it: a local database server (PGlite in memory, or the
 * PostgreSQL of TEST_PG_URL) on a free port, a book written into the source, `wrangler dev` on
 * another free port, and a real sync (POST /api/sync) into the target. Never port 8787, which
 * `npm start` and other work use.
 *
 *   const stack = await startStack({ book });   // in beforeAll
 *   await fetch(`${stack.url}/api/aggregate/${slug}`);
 *   await stack.stop();                          // in afterAll
 */
import { createSql } from "../../src/db/client";
import { startLocalDbServer } from "../../scripts/local-db";
import { freePort, startWranglerDev } from "../../scripts/wrangler-dev";
import { type Book, writeSource } from "../support/book";

export const ADMIN_KEY = "browser-admin-key";

export interface Stack {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** Target database requests the local server has answered so far. */
  targetRequests(): number;
  /** POST /api/sync with the admin key; throws unless it succeeds. */
  sync(): Promise<{ synced_rows: number; complete: boolean }>;
  stop(): Promise<void>;
}

export async function startStack(options: { book?: Book; vars?: Record<string, string> } = {}): Promise<Stack> {
  const db = await startLocalDbServer({ port: 0, pgUrl: process.env.TEST_PG_URL || undefined });
  const suffix = `b${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const target = `investments_${suffix}`;
  const source = `backoffice_${suffix}`;
  let worker: Awaited<ReturnType<typeof startWranglerDev>> | undefined;
  const stop = async () => {
    await worker?.stop();
    for (const name of [target, source])
      await fetch(`${db.url}/__drop?database=${name}`, { method: "POST" }).catch(() => undefined);
    await db.close();
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
