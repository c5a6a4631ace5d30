/**
 * The local database server speaks Neon's SQL-over-HTTP protocol (scripts/local-db/README.md):
 * batches are transactions, Postgres errors reach the driver with their fields, malformed
 * requests are refused as the proxy refuses them, and sessions and databases stay apart.
 */
import { NeonDbError } from "@neondatabase/serverless";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb, createSql } from "../../src/db/client";
import { brokers } from "../../src/db/schema";
import { localDbUrl } from "../support/databases";
import {
  BROKER_ID,
  connectionString,
  freshName,
  freshSql,
  insertBroker,
  NO_ERROR_FIELDS,
  rawSql,
  rejection,
  request,
} from "./support";

describe("batches", () => {
  it("roll back entirely when a statement fails midway", async () => {
    const { sql } = freshSql();
    const error = await rejection(
      sql.transaction([
        insertBroker(sql, "B1"),
        sql`select 1 / 0`,
        insertBroker(sql, "B2", "Second", "00000000-0000-4000-8000-000000000002"),
      ]),
    );
    expect(error).toBeInstanceOf(NeonDbError);
    expect(error).toMatchObject({ message: "division by zero", code: "22012" });
    expect(await sql`select count(*)::int as count from brokers`).toStrictEqual([{ count: 0 }]);
  });

  it("commit every statement together and answer each one's rows", async () => {
    const { sql } = freshSql();
    const results = await sql.transaction([
      insertBroker(sql, "B1"),
      sql`update brokers set name = 'Renamed' returning code, name`,
      sql`select count(*)::int as count from brokers`,
    ]);
    expect(results).toStrictEqual([[], [{ code: "B1", name: "Renamed" }], [{ count: 1 }]]);
  });

  it("run with the isolation level, read-only and deferrable modes the driver asks for", async () => {
    const { sql } = freshSql();
    const show = () => [sql`show transaction_isolation`, sql`show transaction_read_only`, sql`show transaction_deferrable`];
    expect(await sql.transaction(show(), { isolationLevel: "Serializable", readOnly: true, deferrable: true })).toStrictEqual([
      [{ transaction_isolation: "serializable" }],
      [{ transaction_read_only: "on" }],
      [{ transaction_deferrable: "on" }],
    ]);
    expect(await sql.transaction(show(), { isolationLevel: "RepeatableRead" })).toStrictEqual([
      [{ transaction_isolation: "repeatable read" }],
      [{ transaction_read_only: "off" }],
      [{ transaction_deferrable: "off" }],
    ]);
    expect(await sql.transaction(show())).toStrictEqual([
      [{ transaction_isolation: "read committed" }],
      [{ transaction_read_only: "off" }],
      [{ transaction_deferrable: "off" }],
    ]);
  });

  it("refuse writes in a read-only batch", async () => {
    const { sql } = freshSql();
    const error = await rejection(sql.transaction([insertBroker(sql)], { readOnly: true }));
    expect(error).toBeInstanceOf(NeonDbError);
    expect(error).toMatchObject({ message: "cannot execute INSERT in a read-only transaction", code: "25006" });
    expect(await sql`select count(*)::int as count from brokers`).toStrictEqual([{ count: 0 }]);
  });

  it("echo the settings applied, and take only the literal `true`", async () => {
    const { name } = freshSql();
    const batch = { queries: [{ query: "show transaction_isolation" }, { query: "show transaction_read_only" }] };
    const echoed = (a: { headers: Headers }) => ({
      isolation: a.headers.get("neon-batch-isolation-level"),
      readOnly: a.headers.get("neon-batch-read-only"),
      deferrable: a.headers.get("neon-batch-deferrable"),
    });

    const strict = await rawSql(name, batch, {
      "Neon-Batch-Isolation-Level": "RepeatableRead",
      "Neon-Batch-Read-Only": "true",
      "Neon-Batch-Deferrable": "true",
    });
    expect(strict.status).toBe(200);
    expect(echoed(strict)).toStrictEqual({ isolation: "RepeatableRead", readOnly: "true", deferrable: "true" });
    expect(strict.body.results.map((r: { rows: unknown[] }) => r.rows)).toStrictEqual([
      [{ transaction_isolation: "repeatable read" }],
      [{ transaction_read_only: "on" }],
    ]);

    const loose = await rawSql(name, batch, { "Neon-Batch-Read-Only": "TRUE", "Neon-Batch-Deferrable": "1" });
    expect(loose.status).toBe(200);
    expect(echoed(loose)).toStrictEqual({ isolation: null, readOnly: null, deferrable: null });
    expect(loose.body.results.map((r: { rows: unknown[] }) => r.rows)).toStrictEqual([
      [{ transaction_isolation: "read committed" }],
      [{ transaction_read_only: "off" }],
    ]);

    // A single query is not a batch: nothing to echo.
    const single = await rawSql(name, { query: "select 1" }, { "Neon-Batch-Read-Only": "true" });
    expect(single.status).toBe(200);
    expect(echoed(single)).toStrictEqual({ isolation: null, readOnly: null, deferrable: null });
  });

  it("answer each statement with its own array mode", async () => {
    const { name } = freshSql();
    const { status, body } = await rawSql(
      name,
      { queries: [{ query: "select 1 as one" }, { query: "select 2 as two", arrayMode: false }] },
      { "Neon-Array-Mode": "true" },
    );
    expect(status).toBe(200);
    expect(body.results.map((r: { rows: unknown[]; rowAsArray: boolean }) => [r.rows, r.rowAsArray])).toStrictEqual([
      [[["1"]], true],
      [[{ two: "2" }], false],
    ]);
  });
});

describe("Postgres errors", () => {
  it("reach the driver as a NeonDbError with code, constraint and table (23505)", async () => {
    const { sql } = freshSql();
    await insertBroker(sql);
    const error = await rejection(insertBroker(sql));
    expect(error).toBeInstanceOf(NeonDbError);
    expect(error).toMatchObject({
      message: 'duplicate key value violates unique constraint "brokers_pkey"',
      code: "23505",
      severity: "ERROR",
      detail: `Key (id)=(${BROKER_ID}) already exists.`,
      schema: "public",
      table: "brokers",
      constraint: "brokers_pkey",
      column: undefined,
    });
  });

  it("reach the driver as a NeonDbError with code 22012 for a division by zero", async () => {
    const { sql } = freshSql();
    const error = await rejection(sql`select 1 / ${0}::int as x`);
    expect(error).toBeInstanceOf(NeonDbError);
    expect(error).toMatchObject({ message: "division by zero", code: "22012", severity: "ERROR", table: undefined });
  });

  it("are answered with 400 and every error field", async () => {
    const { name } = freshSql();
    const { status, body } = await rawSql(name, {
      query: "insert into brokers (id, code, name, source_updated_at) values ($1, $2, $3, $4)",
      params: [BROKER_ID, null, "Broker", "2024-01-02T03:04:05.123456Z"],
    });
    expect(status).toBe(400);
    expect(body).toStrictEqual({
      ...NO_ERROR_FIELDS,
      message: 'null value in column "code" of relation "brokers" violates not-null constraint',
      code: "23502",
      severity: "ERROR",
      detail: `Failing row contains (${BROKER_ID}, null, Broker, 2024-01-02 03:04:05.123456+00, null, null).`,
      schema: "public",
      table: "brokers",
      column: "code",
      // Where in Postgres's source the error was raised, which depends on its version.
      file: expect.stringMatching(/\.c$/),
      line: expect.stringMatching(/^\d+$/),
      routine: expect.any(String),
    });
  });
});

describe("requests the proxy rejects", () => {
  it("answer 400 with a message for a body that is not JSON", async () => {
    const { status, body } = await rawSql(freshName("investments"), "{not json");
    expect(status).toBe(400);
    expect(body).toStrictEqual({ message: expect.stringMatching(/^could not parse the HTTP request body: .+/) });
  });

  it("answer 400 with a message for a body without a query", async () => {
    const name = freshName("investments");
    expect(await rawSql(name, { params: [] })).toMatchObject({
      status: 400,
      body: { message: "could not parse the HTTP request body: expected {query, params} or {queries: [...]}" },
    });
    expect(await rawSql(name, { query: 1 })).toMatchObject({
      status: 400,
      body: { message: "could not parse the HTTP request body: `query` must be a string" },
    });
    expect(await rawSql(name, { query: "select 1", params: "x" })).toMatchObject({
      status: 400,
      body: { message: "could not parse the HTTP request body: `params` must be an array" },
    });
  });

  it("answer 400 for an unknown isolation level", async () => {
    const { status, body } = await rawSql(
      freshName("investments"),
      { queries: [{ query: "select 1" }] },
      { "Neon-Batch-Isolation-Level": "Chaos" },
    );
    expect([status, body]).toStrictEqual([400, { message: "invalid isolation level" }]);
  });

  it("answer 400 and 3D000 for a database outside the two families", async () => {
    const database = `elsewhere_t${crypto.randomUUID().slice(0, 8)}`;
    const { status, body } = await rawSql(database, { query: "select 1" });
    expect(status).toBe(400);
    expect(body).toStrictEqual({
      ...NO_ERROR_FIELDS,
      message: `unknown database "${database}": names must start with "investments" (target schema) or "backoffice" (source schema)`,
      code: "3D000",
      severity: "FATAL",
    });
    const error = await rejection(createSql(connectionString(database))`select 1`);
    expect(error).toBeInstanceOf(NeonDbError);
    expect(error).toMatchObject({ code: "3D000" });
  });

  it("answer 400 and 42601 for two statements in one query", async () => {
    const { status, body } = await rawSql(freshName("investments"), { query: "select 1; select 2" });
    expect(status).toBe(400);
    expect(body).toMatchObject({ message: "cannot insert multiple commands into a prepared statement", code: "42601" });
  });

  it("answer 400 without a usable connection string", async () => {
    const post = (headers: Record<string, string>) =>
      request("/sql", { method: "POST", headers, body: JSON.stringify({ query: "select 1" }) });
    expect(await post({})).toMatchObject({ status: 400, body: { message: "invalid header: neon-connection-string" } });
    expect(await post({ "Neon-Connection-String": "mysql://u:p@127.0.0.1/investments_x" })).toMatchObject({
      status: 400,
      body: { message: "incorrect scheme" },
    });
    expect(await post({ "Neon-Connection-String": "postgres://u:p@127.0.0.1:5432/" })).toMatchObject({
      status: 400,
      body: { message: "missing database name" },
    });
  });

  it("answer 404 for unknown paths and 400 for the wrong method", async () => {
    expect(await request("/elsewhere")).toStrictEqual({
      status: 404,
      headers: expect.any(Headers),
      body: { message: "not found: /elsewhere" },
    });
    expect(await request("/sql/extra", { method: "POST" })).toMatchObject({
      status: 404,
      body: { message: "not found: /sql/extra" },
    });
    expect(await request("/sql")).toMatchObject({ status: 400, body: { message: "/sql expects POST, not GET" } });
  });
});

describe("sessions and databases", () => {
  it("do not leak a lone BEGIN into the next request", async () => {
    const { sql } = freshSql();
    await insertBroker(sql);
    await sql`begin`;
    await sql`update brokers set name = 'Committed' where id = ${BROKER_ID}`;
    // Had the BEGIN stayed open, this would undo the update.
    await sql`rollback`;
    expect(await sql`select name from brokers where id = ${BROKER_ID}`).toStrictEqual([{ name: "Committed" }]);
  });

  it("keep two databases apart", async () => {
    const a = freshSql();
    const b = freshSql();
    await insertBroker(a.sql, "A", "Only in a");
    expect(await a.sql`select code from brokers`).toStrictEqual([{ code: "A" }]);
    expect(await b.sql`select code from brokers`).toStrictEqual([]);
  });

  it("create a database once when its first requests arrive together", async () => {
    const { sql } = freshSql();
    const answers = await Promise.all(Array.from({ length: 4 }, () => sql`select count(*)::int as count from brokers`));
    expect(answers).toStrictEqual(Array.from({ length: 4 }, () => [{ count: 0 }]));
  });

  it("give the backoffice family the source schema", async () => {
    const { sql } = freshSql("backoffice");
    const [row] = await sql`insert into brokers (code, name) values ('S', 'Source') returning id, deleted_at`;
    expect(row).toStrictEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      deleted_at: null,
    });
  });

  it("serve drizzle-orm/neon-http on the target schema", async () => {
    const name = freshName("investments");
    const { db, sql } = createDb(connectionString(name));
    await insertBroker(sql);
    expect(await db.select().from(brokers).where(eq(brokers.id, BROKER_ID))).toStrictEqual([
      {
        id: BROKER_ID,
        code: "B1",
        name: "Broker",
        deletedAt: null,
        rejected: null,
        sourceUpdatedAt: "2024-01-02 03:04:05.123456+00",
      },
    ]);
    const [updated, selected] = await db.batch([
      db.update(brokers).set({ name: "Renamed" }).where(eq(brokers.id, BROKER_ID)).returning({ name: brokers.name }),
      db.select({ code: brokers.code, name: brokers.name }).from(brokers),
    ]);
    expect([updated, selected]).toStrictEqual([[{ name: "Renamed" }], [{ code: "B1", name: "Renamed" }]]);
  });

  it("answer the health check", async () => {
    const res = await fetch(`${localDbUrl()}/__health`);
    expect([res.status, await res.json()]).toStrictEqual([200, { ok: true }]);
  });
});
