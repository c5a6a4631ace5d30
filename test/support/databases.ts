/**
 * Private databases per test: the local database server creates a database the first time a
 * connection string names it (the target schema for `investments*` names, the source schema
 * for `backoffice*`) and drops it, here, when the test ends, which lets the server reuse it.
 * Tests that share nothing cannot depend on order.
 */
import { env } from "cloudflare:workers";
import { onTestFinished } from "vitest";
import { createSql, type Sql } from "../../src/db/client";
import type { Env } from "../../src/env";

export const localDbUrl = () => `http://127.0.0.1:${env.LOCAL_DB_PORT}`;

export type Family = "investments" | "backoffice";
export type Fault = "error500" | "timeout";

/** `investments_t<hex>` / `backoffice_t<hex>`: the names global-setup.ts drops after the run. */
export const freshName = (family: Family, suffix = newSuffix()) => `${family}_t${suffix}`;
const newSuffix = () => crypto.randomUUID().replaceAll("-", "").slice(0, 16);

export const connectionString = (database: string, user = "app") =>
  `postgres://${user}:local@127.0.0.1:${env.LOCAL_DB_PORT}/${database}`;

export interface TestDatabases {
  /** Worker env pointing at this pair of databases. */
  env: Env;
  target: Sql;
  source: Sql;
  targetName: string;
  sourceName: string;
  /** Requests the local server has answered for the target database so far. */
  targetRequests(): Promise<number>;
  sourceRequests(): Promise<number>;
  /** Requests each database answered while `action` ran, beside what it returned. */
  trips<T>(action: () => Promise<T>): Promise<{ target: number; source: number; result: T }>;
  /** Target requests made while `action` ran: an endpoint's round trips. */
  targetTrips(action: () => Promise<unknown>): Promise<number>;
  /** Makes one of the pair fail every request until the test ends or `recover` is called. */
  fault(which: "target" | "source", mode: Fault): Promise<void>;
  recover(which: "target" | "source"): Promise<void>;
}

export async function freshDatabases(overrides: Partial<Env> = {}): Promise<TestDatabases> {
  const suffix = newSuffix();
  const targetName = freshName("investments", suffix);
  const sourceName = freshName("backoffice", suffix);
  const targetUrl = connectionString(targetName);
  const sourceUrl = connectionString(sourceName, "sync");
  const target = createSql(targetUrl);
  const source = createSql(sourceUrl);
  const names = { target: targetName, source: sourceName };
  dropWhenTestEnds(targetName, sourceName);
  // Create both now, so the requests a test counts are its own.
  await Promise.all([target`select 1`, source`select 1`]);
  const dbs: TestDatabases = {
    env: { ...(env as Env), DATABASE_URL: targetUrl, SOURCE_DATABASE_URL: sourceUrl, ...overrides },
    target,
    source,
    targetName,
    sourceName,
    targetRequests: () => requestCount(targetName),
    sourceRequests: () => requestCount(sourceName),
    async trips(action) {
      const before = await requestCounts();
      const result = await action();
      const after = await requestCounts();
      const delta = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
      return { target: delta(targetName), source: delta(sourceName), result };
    },
    targetTrips: async (action) => (await dbs.trips(action)).target,
    fault: (which, mode) => setFault(names[which], mode),
    recover: (which) => setFault(names[which], "off"),
  };
  return dbs;
}

/**
 * Inside a test, the databases go when it ends (faults cleared too); made in a beforeAll they
 * stay until global-setup.ts drops them after the run.
 */
export function dropWhenTestEnds(...databases: string[]): void {
  try {
    onTestFinished(async () => {
      await Promise.all(
        databases.map(async (database) => {
          await setFault(database, "off");
          await request(`/__drop?database=${encodeURIComponent(database)}`);
        }),
      );
    });
  } catch {
    // Not inside a test.
  }
}

async function requestCounts(): Promise<Record<string, number>> {
  const res = await fetch(`${localDbUrl()}/__stats`);
  return ((await res.json()) as { databases: Record<string, number> }).databases;
}

export async function requestCount(database: string): Promise<number> {
  return (await requestCounts())[database] ?? 0;
}

/** Makes a database answer every query with HTTP 500 (`error500`), hang (`timeout`) or recover (`off`). */
export async function setFault(database: string, mode: Fault | "off"): Promise<void> {
  await request(`/__fault?database=${encodeURIComponent(database)}&mode=${mode}`);
}

async function request(path: string): Promise<void> {
  const res = await fetch(`${localDbUrl()}${path}`, { method: "POST" });
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
}
