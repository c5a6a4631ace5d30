/**
 * `npm start`: the whole service on this machine, with demo data.
 *
 * 1. the local database server (PGlite under .data/, or the PostgreSQL of LOCAL_PG_URL);
 * 2. the demo book in the source database (SEED=demo, the default; SEED=none leaves it empty);
 * 3. `wrangler dev` serving the Worker;
 * 4. a real sync (POST /api/sync) filling the target, then a few demo customers' page and API URLs.
 * Ctrl-C stops everything.
 */
import { createSql } from "../src/db/client";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";
import { startLocalDbServer } from "./local-db";
import { generateDemoBookChunks } from "./demo/generate";
import { isSourceEmpty, loadBook } from "./demo/load";
import { startWranglerDev } from "./wrangler-dev";

const root = fileURLToPath(new URL("..", import.meta.url));
const port = Number(process.env.PORT ?? 8787);
const dbPort = Number(process.env.LOCAL_DB_PORT ?? 4444);
const seed = process.env.SEED ?? "demo";
const base = `http://127.0.0.1:${port}`;

function devVars(): Record<string, string> {
  const path = `${root}.dev.vars`;
  if (!existsSync(path)) {
    copyFileSync(`${root}.dev.vars.example`, path);
    console.log("created .dev.vars from .dev.vars.example");
  }
  // Node's own dotenv reader: comments, quotes and `export`, as wrangler's dotenv reads the file too.
  return parseEnv(readFileSync(path, "utf8")) as Record<string, string>;
}

/** The connection strings name the local server; keep their port in step with LOCAL_DB_PORT. */
function onLocalPort(url: string): string {
  const u = new URL(url);
  u.port = String(dbPort);
  return u.toString();
}

async function main() {
  const vars = devVars();
  const targetUrl = onLocalPort(vars.DATABASE_URL ?? "postgres://app:local@127.0.0.1:4444/investments");
  const sourceUrl = onLocalPort(vars.SOURCE_DATABASE_URL ?? "postgres://sync:local@127.0.0.1:4444/backoffice");
  const adminKey = vars.ADMIN_API_KEY ?? "";

  const pgUrl = process.env.LOCAL_PG_URL || undefined;
  const server = await startLocalDbServer({ port: dbPort, pgUrl, dataDir: pgUrl ? undefined : `${root}.data/pglite` });
  console.log(`local database server on ${server.url} (${pgUrl ? "PostgreSQL" : "PGlite under .data/"})`);
  const source = createSql(sourceUrl);
  const target = createSql(targetUrl);
  await target`select 1`; // creates the target database and its schema on first start
  if (seed === "demo" && (await isSourceEmpty(source))) {
    const started = Date.now();
    const counts = await loadBook(source, generateDemoBookChunks({}));
    console.log(`demo data loaded into the source in ${Date.now() - started} ms: ${JSON.stringify(counts)}`);
  } else {
    await source`select 1`;
  }

  const wrangler = await startWranglerDev({ port, vars: { DATABASE_URL: targetUrl, SOURCE_DATABASE_URL: sourceUrl } });
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await wrangler.stop();
    await server.close();
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  void wrangler.exited.then((code) => stop(code));

  try {
    await syncUntilComplete(adminKey);
  } catch (err) {
    // Never leave wrangler dev holding the port behind us.
    console.error(err instanceof Error ? err.message : err);
    await stop(1);
  }

  const slugs = (await target`select slug, name from customers order by name limit 5`) as Array<{ slug: string; name: string }>;
  console.log(`\nService ready at ${base}`);
  const width = Math.max(0, ...slugs.map((s) => s.name.length));
  for (const { slug, name } of slugs)
    console.log(`  ${name.padEnd(width)}  page ${base}/c/${slug}   API ${base}/api/aggregate/${slug}`);
  if (!slugs.length) console.log("  (no customers yet: SEED=none, or the sync has not copied any)");
  console.log("Ctrl-C stops it.\n");
}

/**
 * Syncs until a run reports complete (a run stops at its budget; the next one continues). When
 * another run holds the lease (a run of an earlier start that was killed, or a chained run the
 * service started itself), waits as long as the 409's Retry-After says, and tries again.
 */
async function syncUntilComplete(adminKey: string): Promise<void> {
  for (let run = 1; ; ) {
    const res = await fetch(`${base}/api/sync`, { method: "POST", headers: { "X-Admin-Key": adminKey } });
    const body = (await res.json()) as {
      data?: { synced_rows: number; duration_ms: number; complete: boolean };
      details?: { reason?: string };
    };
    if (res.status === 409) {
      const wait = Number(res.headers.get("Retry-After") ?? "5");
      console.log(`${body.details?.reason ?? "another sync run holds the lease"}: waiting ${wait} s`);
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      continue;
    }
    if (!res.ok || !body.data) throw new Error(`sync failed: HTTP ${res.status} ${JSON.stringify(body)}`);
    console.log(
      `sync run ${run++}: ${body.data.synced_rows} rows in ${body.data.duration_ms} ms, complete: ${body.data.complete}`,
    );
    if (body.data.complete) return;
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
