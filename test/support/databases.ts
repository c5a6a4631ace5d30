/**
 * Fresh, private databases per test: the local database server creates a database the first
 * time a connection string names it, with the target schema for `investments*` names and the
 * source schema for `backoffice*`. Tests that share nothing cannot depend on order.
 */
import { env } from "cloudflare:workers";
import { createSql, type Sql } from "../../src/db/client";
import type { Env } from "../../src/env";

export const localDbUrl = () => `http://127.0.0.1:${env.LOCAL_DB_PORT}`;

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
}

export async function freshDatabases(overrides: Partial<Env> = {}): Promise<TestDatabases> {
  const suffix = crypto.randomUUID().replaceAll("-", "").slice(0, 16);
  const targetName = `investments_t${suffix}`;
  const sourceName = `backoffice_t${suffix}`;
  const targetUrl = `postgres://app:local@127.0.0.1:${env.LOCAL_DB_PORT}/${targetName}`;
  const sourceUrl = `postgres://sync:local@127.0.0.1:${env.LOCAL_DB_PORT}/${sourceName}`;
  const target = createSql(targetUrl);
  const source = createSql(sourceUrl);
  // Create both now, so the requests a test counts are its own.
  await Promise.all([target`select 1`, source`select 1`]);
  return {
    env: { ...(env as Env), DATABASE_URL: targetUrl, SOURCE_DATABASE_URL: sourceUrl, ...overrides },
    target,
    source,
    targetName,
    sourceName,
    targetRequests: () => requestCount(targetName),
    sourceRequests: () => requestCount(sourceName),
  };
}

export async function requestCount(database: string): Promise<number> {
  const res = await fetch(`${localDbUrl()}/__stats`);
  const body = (await res.json()) as { databases: Record<string, number> };
  return body.databases[database] ?? 0;
}

/** Makes a database answer every query with HTTP 500 (`error500`), hang (`timeout`) or recover (`off`). */
export async function setFault(database: string, mode: "error500" | "timeout" | "off"): Promise<void> {
  const res = await fetch(`${localDbUrl()}/__fault?database=${encodeURIComponent(database)}&mode=${mode}`, { method: "POST" });
  if (!res.ok) throw new Error(`fault injection failed: ${res.status}`);
}
