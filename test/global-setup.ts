/**
 * Starts the local database server once for the whole run (in Node, outside workerd) and
 * hands its port to the workers through `provide`. Tests drop their databases as they end
 * (test/support/databases.ts), which lets the PGlite server reuse them; at the end this drops
 * whatever is left, so runs against a real PostgreSQL (TEST_PG_URL) leave none behind.
 */
import type { TestProject } from "vitest/node";
import { fillAssets } from "../scripts/assets";
import { startLocalDbServer } from "../scripts/local-db";
import { type FoundChromium, findChromium } from "./browser/chromium";

declare module "vitest" {
  export interface ProvidedContext {
    localDbPort: number;
    chromium: FoundChromium;
  }
}

/** The names tests give their own databases (test/support/databases.ts, test/local-db/support.ts). */
const TEST_DATABASE = /^(investments|backoffice)_t[0-9a-f]+$/;
/** Drops at once, as many as the server's admin pool for PostgreSQL holds. */
const DROP_CONCURRENCY = 10;

export default async function setup(project: TestProject) {
  // wrangler.toml's `[assets]` folder, which the workers projects and wrangler dev both read.
  fillAssets();
  // PGlite on a thread per file that runs at once (maxWorkers): each keeps its databases busy.
  const server = await startLocalDbServer({
    port: 0,
    pgUrl: process.env.TEST_PG_URL || undefined,
    prepareSpares: true,
    threads: project.vitest.config.maxWorkers,
  });
  project.provide("localDbPort", server.port);
  if (project.vitest.projects.some((p) => p.name === "browser")) {
    const browser = await findChromium();
    console.info(`browser tests: Chromium from ${browser.origin} (${browser.path})`);
    project.provide("chromium", browser);
  }
  return async () => {
    try {
      await dropTestDatabases(server.url);
    } finally {
      await server.close();
    }
  };
}

/** Drops every test database the server has seen this run (GET /__stats, POST /__drop). */
async function dropTestDatabases(url: string): Promise<void> {
  const res = await fetch(`${url}/__stats`);
  if (!res.ok) throw new Error(`GET /__stats answered ${res.status}`);
  const { databases } = (await res.json()) as { databases: Record<string, number> };
  const queue = Object.keys(databases).filter((name) => TEST_DATABASE.test(name));
  const failures: string[] = [];
  const worker = async () => {
    for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
      const drop = await fetch(`${url}/__drop?database=${encodeURIComponent(name)}`, { method: "POST" });
      if (!drop.ok) failures.push(`${name}: ${drop.status} ${await drop.text()}`);
    }
  };
  await Promise.all(Array.from({ length: DROP_CONCURRENCY }, worker));
  if (failures.length) throw new Error(`could not drop ${failures.length} test database(s):\n${failures.join("\n")}`);
}
