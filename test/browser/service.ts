/**
 * The service as a browser reaches it: the local database server and `wrangler dev`, each on a
 * free port (8787 and 4444 may belong to someone's `npm start`), with fresh databases of its own.
 */
import { createServer } from "node:net";
import { startLocalDbServer } from "../../scripts/local-db/server";
import { startWranglerDev } from "../../scripts/wrangler-dev";
import { createSql } from "../../src/db/client";

export interface Service {
  url: string;
  adminKey: string;
  target: ReturnType<typeof createSql>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startService(): Promise<Service> {
  const db = await startLocalDbServer({ port: 0, pgUrl: process.env.TEST_PG_URL || undefined });
  const suffix = `t${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const port = new URL(db.url).port;
  const targetUrl = `postgres://app:local@127.0.0.1:${port}/investments_${suffix}`;
  const sourceUrl = `postgres://sync:local@127.0.0.1:${port}/backoffice_${suffix}`;
  const adminKey = crypto.randomUUID() + crypto.randomUUID();
  const target = createSql(targetUrl);
  await target`select 1`; // creates the database and its schema
  await createSql(sourceUrl)`select 1`;
  const wrangler = await startWranglerDev({
    port: await freePort(),
    quiet: true,
    vars: { DATABASE_URL: targetUrl, SOURCE_DATABASE_URL: sourceUrl, ADMIN_API_KEY: adminKey },
  });
  return {
    url: wrangler.url,
    adminKey,
    target,
    async stop() {
      await wrangler.stop();
      await db.close();
    },
  };
}
