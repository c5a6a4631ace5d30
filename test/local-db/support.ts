/**
 * Helpers for the local database server's own tests: freshly named databases (the server
 * creates each on first use, and each is dropped when its test ends), and direct requests to
 * the server for what the driver hides (raw cells, headers, status codes).
 */
import { expect } from "vitest";
import { createSql, type Sql } from "../../src/db/client";
import { connectionString, dropWhenTestEnds, type Family, freshName, localDbUrl } from "../support/databases";

export { connectionString, freshName };

/** A driver client (as the service builds it) for a new database, not created until first used. */
export function freshSql(family: Family = "investments"): { name: string; url: string; sql: Sql } {
  const name = freshName(family);
  const url = connectionString(name);
  dropWhenTestEnds(name);
  return { name, url, sql: createSql(url) };
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/**
 * `POST /sql` without the driver; a string body is sent as it is. Raw text output is asked for,
 * as the driver always does, unless `headers` says otherwise.
 */
export async function rawSql(database: string, body: unknown, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return answer(
    await fetch(`${localDbUrl()}/sql`, {
      method: "POST",
      headers: { "Neon-Connection-String": connectionString(database), "Neon-Raw-Text-Output": "true", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

/** Any request to the server, e.g. `/__drop?database=...`. */
export async function request(path: string, init: RequestInit = {}): Promise<RawAnswer> {
  return answer(await fetch(`${localDbUrl()}${path}`, init));
}

async function answer(res: Response): Promise<RawAnswer> {
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** A Postgres error as the server answers it: every field present, null where Postgres gave none. */
export const NO_ERROR_FIELDS = {
  code: null,
  detail: null,
  hint: null,
  position: null,
  internalPosition: null,
  internalQuery: null,
  severity: null,
  where: null,
  table: null,
  column: null,
  schema: null,
  dataType: null,
  constraint: null,
  file: null,
  line: null,
  routine: null,
};

export const BROKER_ID = "6f1c2b4e-8a8f-4f0e-9d55-0c6a3f7b2a10";

/** Inserts one broker into a target-schema database. */
export function insertBroker(sql: Sql, code = "B1", name = "Broker", id = BROKER_ID) {
  return sql`insert into brokers (id, code, name, source_updated_at)
    values (${id}, ${code}, ${name}, '2024-01-02T03:04:05.123456Z')`;
}

/** What `promise` rejects with; fails the test if it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("expected a rejection"),
    (error: unknown) => error,
  );
}
