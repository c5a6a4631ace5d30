/**
 * End-to-end check of the local database server with the real driver:
 *
 *   npx tsx scripts/local-db/selfcheck.ts                                        # PGlite
 *   LOCAL_PG_URL=postgres://postgres@127.0.0.1:5432 npx tsx scripts/local-db/selfcheck.ts
 *
 * Exits non-zero if any check fails, and prints how long creating a database takes.
 */
import { neon, neonConfig, NeonDbError } from "@neondatabase/serverless";
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/neon-http";
import { brokers } from "../../src/db/schema";
import { startLocalDbServer } from "./server";

const pgUrl = process.env.LOCAL_PG_URL || undefined;
neonConfig.fetchEndpoint = (host, port) => `http://${host}:${port}/sql`;

const server = await startLocalDbServer({ port: 0, pgUrl, log: (msg) => console.log(`  [server] ${msg}`) });
console.log(`local database server on ${server.url}, backend ${pgUrl ? `PostgreSQL (${pgUrl})` : "PGlite (in memory)"}`);

const DATABASES = ["investments_selfcheck", "investments_a", "investments_b", "backoffice_selfcheck"];
const post = (path: string) => fetch(`${server.url}${path}`, { method: "POST" });
// PostgreSQL keeps databases between runs: start from scratch.
for (const db of DATABASES) await post(`/__drop?database=${db}`);

let failures = 0;
async function check(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
    console.log(`ok   ${name}`);
  } catch (error) {
    failures++;
    console.log(`FAIL ${name}\n     ${(error as Error).stack ?? error}`);
  }
}

/** A request straight to /sql, for what the driver hides (raw text, headers, status codes). */
async function rawSql(database: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/sql`, {
    method: "POST",
    headers: { "Neon-Connection-String": server.connectionString(database), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, any> };
}

const sql = neon(server.connectionString("investments_selfcheck"));
const brokerId = "6f1c2b4e-8a8f-4f0e-9d55-0c6a3f7b2a10";

const createStarted = performance.now();
await sql`select 1`;
const firstCreateMs = performance.now() - createStarted;

const TYPES_QUERY = `select $1::numeric(20,4) as num, $2::date as d, $3::timestamptz as ts, $4::uuid as id,
  $5::int8 as big, $6::int4[] as ints, $7::text[] as texts, $8::jsonb as doc, null::text as nothing,
  $9::bool as flag, $10::bytea as bin, 42 as answer, 1.5::float8 as f`;
const TYPES_PARAMS = [
  "1.23",
  "2024-01-02",
  "2024-01-02T03:04:05.123456Z",
  brokerId,
  9007199254740993n,
  [1, 2, 3],
  ["a b", 'c,"d"', null],
  JSON.stringify({ a: [1, { b: null }] }),
  false,
  Buffer.from([0xde, 0xad]),
];

// Runs before any drizzle client exists: drizzle-orm/neon-http replaces the driver's global
// date/timestamp parsers with identity functions when a client is built.
await check("types arrive as the driver parses Neon's answers", async () => {
  const [row] = await sql.query(TYPES_QUERY, TYPES_PARAMS);
  deepStrictEqual(row, {
    num: "1.2300",
    d: new Date(2024, 0, 2), // pg-types reads a date as local midnight
    ts: new Date("2024-01-02T03:04:05.123Z"),
    id: brokerId,
    big: "9007199254740993",
    ints: [1, 2, 3],
    texts: ["a b", 'c,"d"', null],
    doc: { a: [1, { b: null }] },
    nothing: null,
    flag: false,
    bin: Buffer.from([0xde, 0xad]),
    answer: 42,
    f: 1.5,
  });
});

await check("cells are Postgres's own text output", async () => {
  const { status, json } = await rawSql(
    "investments_selfcheck",
    {
      query: TYPES_QUERY,
      // JSON params as the proxy takes them: arrays become array literals, other values their text.
      params: ["1.23", "2024-01-02", "2024-01-02T03:04:05.123456Z", brokerId, 9007199254740993n.toString(),
        [1, 2, 3], ["a b", 'c,"d"', null], { a: [1, { b: null }] }, false, "\\xdead"],
    },
    { "Neon-Raw-Text-Output": "true", "Neon-Array-Mode": "true" },
  );
  strictEqual(status, 200);
  deepStrictEqual(json.rows, [
    [
      "1.2300",
      "2024-01-02",
      "2024-01-02 03:04:05.123456+00",
      brokerId,
      "9007199254740993",
      "{1,2,3}",
      '{"a b","c,\\"d\\"",NULL}',
      '{"a": [1, {"b": null}]}',
      null,
      "f",
      "\\xdead",
      "42",
      "1.5",
    ],
  ]);
  deepStrictEqual(json.fields[0], {
    name: "num",
    dataTypeID: 1700,
    tableID: null,
    columnID: null,
    dataTypeSize: -1,
    dataTypeModifier: (20 << 16) + 4 + 4,
    format: "text",
  });
  strictEqual(json.command, "SELECT");
  strictEqual(json.rowCount, 1);
  strictEqual(json.rowAsArray, true);
});

await check("without raw text, object rows carry JSON values as Neon converts them", async () => {
  const { json } = await rawSql("investments_selfcheck", {
    query: `select true as b, 7 as i, '{1,NULL}'::int[] as a, '{"x":1}'::jsonb as j, 5::int8 as big, 'NaN'::float8 as nan`,
  });
  deepStrictEqual(json.rows, [{ b: true, i: 7, a: [1, null], j: { x: 1 }, big: "5", nan: "NaN" }]);
  strictEqual(json.rowAsArray, false);
});

await check("a failing statement rolls the whole transaction back", async () => {
  await rejects(
    sql.transaction([
      sql`insert into brokers (id, code, name, source_updated_at) values (${brokerId}, 'B1', 'Broker', now())`,
      sql`select 1 / 0`,
    ]),
    (error: unknown) => error instanceof NeonDbError && error.code === "22012",
  );
  const [{ count }] = (await sql`select count(*)::int as count from brokers`) as [{ count: number }];
  strictEqual(count, 0);
});

await check("a unique violation is a NeonDbError with code 23505", async () => {
  const insert = () =>
    sql`insert into brokers (id, code, name, source_updated_at) values (${brokerId}, 'B1', 'Broker', now())`;
  await insert();
  await rejects(insert(), (error: unknown) => {
    ok(error instanceof NeonDbError);
    strictEqual(error.code, "23505");
    strictEqual(error.constraint, "brokers_pkey");
    strictEqual(error.table, "brokers");
    ok(error.detail?.includes(brokerId));
    return true;
  });
});

await check("batch headers set the transaction mode and are echoed", async () => {
  const results = await sql.transaction(
    [sql`show transaction_isolation`, sql`show transaction_read_only`],
    { isolationLevel: "Serializable", readOnly: true },
  );
  deepStrictEqual(results, [[{ transaction_isolation: "serializable" }], [{ transaction_read_only: "on" }]]);
  const { headers } = await rawSql(
    "investments_selfcheck",
    { queries: [{ query: "select 1", params: [] }] },
    { "Neon-Batch-Isolation-Level": "RepeatableRead", "Neon-Batch-Read-Only": "true" },
  );
  strictEqual(headers.get("neon-batch-isolation-level"), "RepeatableRead");
  strictEqual(headers.get("neon-batch-read-only"), "true");
  strictEqual(headers.get("neon-batch-deferrable"), null);
});

await check("requests the proxy rejects get 400 and a message", async () => {
  const bad = await rawSql("investments_selfcheck", { queries: [] }, { "Neon-Batch-Isolation-Level": "Chaos" });
  deepStrictEqual([bad.status, bad.json.message], [400, "invalid isolation level"]);
  strictEqual((await rawSql("investments_selfcheck", "{not json")).status, 400);
  strictEqual((await rawSql("investments_selfcheck", { params: [] })).status, 400);
  const unknown = await rawSql("somewhere_else", { query: "select 1" });
  deepStrictEqual([unknown.status, unknown.json.code], [400, "3D000"]);
  const noHeader = await fetch(`${server.url}/sql`, { method: "POST", body: "{}" });
  strictEqual(noHeader.status, 400);
  strictEqual((await fetch(`${server.url}/elsewhere`)).status, 404);
  // Like Neon: one statement per query, through the extended protocol.
  const multi = await rawSql("investments_selfcheck", { query: "select 1; select 2" });
  deepStrictEqual([multi.status, multi.json.code], [400, "42601"]);
});

await check("a lone BEGIN does not leak into the next request", async () => {
  await sql`begin`;
  await sql`update brokers set name = 'Committed' where id = ${brokerId}`;
  // Had the BEGIN stayed open, this would undo the update.
  await sql`rollback`;
  deepStrictEqual(await sql`select name from brokers where id = ${brokerId}`, [{ name: "Committed" }]);
});

await check("two databases stay apart", async () => {
  const a = neon(server.connectionString("investments_a"));
  const b = neon(server.connectionString("investments_b"));
  await a`insert into brokers (id, code, name, source_updated_at) values (${brokerId}, 'A', 'Only in a', now())`;
  deepStrictEqual(await a`select code from brokers`, [{ code: "A" }]);
  deepStrictEqual(await b`select code from brokers`, []);
});

await check("simultaneous first requests create a database once", async () => {
  const names = ["investments_race", "investments_race", "investments_race", "backoffice_race"];
  await Promise.all(names.map((name) => neon(server.connectionString(name))`select count(*) from brokers`));
  for (const name of new Set(names)) await post(`/__drop?database=${name}`);
});

await check("the backoffice family gets the source schema", async () => {
  const source = neon(server.connectionString("backoffice_selfcheck"));
  const [row] = await source`insert into brokers (code, name) values ('S', 'Source') returning id, deleted_at`;
  ok(typeof row?.id === "string" && row.deleted_at === null);
});

await check("drizzle-orm/neon-http selects and batches on the target schema", async () => {
  const db = drizzle({ client: sql });
  const rows = await db.select().from(brokers).where(eq(brokers.id, brokerId));
  strictEqual(rows.length, 1);
  strictEqual(rows[0]?.code, "B1");
  ok(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?\+00$/.test(rows[0]?.sourceUpdatedAt ?? ""));
  const [updated, selected] = await db.batch([
    db.update(brokers).set({ name: "Renamed" }).where(eq(brokers.id, brokerId)).returning({ name: brokers.name }),
    db.select({ name: brokers.name }).from(brokers),
  ]);
  deepStrictEqual([updated, selected], [[{ name: "Renamed" }], [{ name: "Renamed" }]]);
});

await check("faults: HTTP 500, then a hang, then recovery", async () => {
  await post("/__fault?database=investments_selfcheck&mode=error500");
  await rejects(sql`select 1`, /Server error \(HTTP status 500\)/);
  await post("/__fault?database=investments_selfcheck&mode=timeout");
  const hanging = neon(server.connectionString("investments_selfcheck"), {
    fetchOptions: { signal: AbortSignal.timeout(300) },
  });
  await rejects(hanging`select 1`, /Error connecting to database/);
  await post("/__fault?database=investments_selfcheck&mode=off");
  deepStrictEqual(await sql`select 1 as one`, [{ one: 1 }]);
});

await check("requests are counted per database, and a dropped database starts empty", async () => {
  const before = server.requestCount("investments_b");
  const stats = (await (await fetch(`${server.url}/__stats`)).json()) as { databases: Record<string, number> };
  strictEqual(stats.databases.investments_b, before);
  await neon(server.connectionString("investments_b")).transaction((q) => [q`select 1`, q`select 2`]);
  strictEqual(server.requestCount("investments_b"), before + 1);
  strictEqual((await post("/__drop?database=investments_a")).status, 200);
  deepStrictEqual(await neon(server.connectionString("investments_a"))`select code from brokers`, []);
});

// Creation cost: the first database above built (or loaded) the family's template; these are
// copies of it. There are more of them than PGlite keeps open, so some get closed and reopened.
const cloneTimes: number[] = [];
await check("many databases each keep their own data", async () => {
  const names = Array.from({ length: 10 }, (_, i) => `investments_selfcheck_many${i}`);
  for (const name of names) {
    const started = performance.now();
    await neon(server.connectionString(name))`select 1`;
    cloneTimes.push(performance.now() - started);
    await neon(server.connectionString(name))`
      insert into brokers (id, code, name, source_updated_at) values (${brokerId}, ${name}, 'x', now())`;
  }
  for (const name of names) {
    deepStrictEqual(await neon(server.connectionString(name))`select code from brokers`, [{ code: name }]);
    await post(`/__drop?database=${name}`);
  }
});

for (const db of DATABASES) await post(`/__drop?database=${db}`);
await server.close();

const avg = cloneTimes.reduce((a, b) => a + b, 0) / cloneTimes.length;
console.log(
  `\ncreating a database (${pgUrl ? "PostgreSQL" : "PGlite"}): first ${Math.round(firstCreateMs)} ms ` +
    `(includes the template), then ${Math.round(avg)} ms on average ` +
    `(${cloneTimes.map((t) => Math.round(t)).join(", ")} ms)`,
);
console.log(failures ? `\n${failures} check(s) failed` : "\nall checks passed");
process.exit(failures ? 1 : 0);
