/**
 * Values through the local database server: what the service gets from the real driver, and
 * the raw answer underneath (Postgres's text output and the RowDescription fields).
 */
import { describe, expect, it } from "vitest";
import { BROKER_ID, connectionString, freshSql, insertBroker, rawSql, request } from "./support";

const TYPES_QUERY = `select $1::numeric(20,4) as num, $2::date as d, $3::timestamptz as ts, $4::timestamp as local_ts,
  $5::uuid as id, $6::int8 as big, $7::int4[] as ints, $8::text[] as texts, $9::jsonb as doc, null::text as nothing,
  $10::bool as flag, $11::bytea as bin, 42 as answer, 1.5::float8 as f, '{1.50,NULL}'::numeric[] as amounts`;

describe("types through the local database server", () => {
  it("reach the service as the driver parses them (dates and timestamps stay strings)", async () => {
    const { sql } = freshSql();
    const [row] = await sql.query(TYPES_QUERY, [
      "1.23",
      "2024-01-02",
      "2024-01-02T03:04:05.123456Z",
      "2024-01-02 03:04:05.5",
      BROKER_ID,
      9007199254740993n,
      [1, 2, 3],
      ["a b", 'c,"d"', null],
      JSON.stringify({ a: [1, { b: null }] }),
      false,
      Buffer.from([0xde, 0xad]),
    ]);
    expect(row).toStrictEqual({
      num: "1.2300",
      // src/db/client.ts: identity parsers for date (1082), timestamp (1114) and timestamptz (1184).
      d: "2024-01-02",
      ts: "2024-01-02 03:04:05.123456+00",
      local_ts: "2024-01-02 03:04:05.5",
      id: BROKER_ID,
      big: "9007199254740993",
      ints: [1, 2, 3],
      texts: ["a b", 'c,"d"', null],
      doc: { a: [1, { b: null }] },
      nothing: null,
      flag: false,
      bin: Buffer.from([0xde, 0xad]),
      answer: 42,
      f: 1.5,
      // pg-types reads numeric[] elements as floats (a plain numeric stays a string).
      amounts: [1.5, null],
    });
  });

  it("arrive as Postgres's own text output with the RowDescription fields", async () => {
    const { name } = freshSql();
    const { status, body } = await rawSql(
      name,
      {
        query: TYPES_QUERY,
        // JSON parameters as the proxy takes them: arrays become array literals, other values their text.
        params: [
          "1.23",
          "2024-01-02",
          "2024-01-02T03:04:05.123456Z",
          "2024-01-02 03:04:05.5",
          BROKER_ID,
          "9007199254740993",
          [1, 2, 3],
          ["a b", 'c,"d"', null],
          { a: [1, { b: null }] },
          false,
          "\\xdead",
        ],
      },
      { "Neon-Array-Mode": "true" },
    );
    expect(status).toBe(200);
    const computed = (name: string, dataTypeID: number, dataTypeSize: number, dataTypeModifier = -1) => ({
      name,
      dataTypeID,
      tableID: null,
      columnID: null,
      dataTypeSize,
      dataTypeModifier,
      format: "text",
    });
    expect(body).toStrictEqual({
      command: "SELECT",
      rowCount: 1,
      rows: [
        [
          "1.2300",
          "2024-01-02",
          "2024-01-02 03:04:05.123456+00",
          "2024-01-02 03:04:05.5",
          BROKER_ID,
          "9007199254740993",
          "{1,2,3}",
          '{"a b","c,\\"d\\"",NULL}',
          '{"a": [1, {"b": null}]}',
          null,
          "f",
          "\\xdead",
          "42",
          "1.5",
          "{1.50,NULL}",
        ],
      ],
      fields: [
        computed("num", 1700, -1, (20 << 16) + 4 + 4),
        computed("d", 1082, 4),
        computed("ts", 1184, 8),
        computed("local_ts", 1114, 8),
        computed("id", 2950, 16),
        computed("big", 20, 8),
        computed("ints", 1007, -1),
        computed("texts", 1009, -1),
        computed("doc", 3802, -1),
        computed("nothing", 25, -1),
        computed("flag", 16, 1),
        computed("bin", 17, -1),
        computed("answer", 23, 4),
        computed("f", 701, 8),
        computed("amounts", 1231, -1),
      ],
      rowAsArray: true,
    });
  });

  it("name the table and column of a table's columns", async () => {
    const { name, sql } = freshSql();
    await insertBroker(sql);
    const [{ oid }] = (await sql`select 'brokers'::regclass::oid::int as oid`) as [{ oid: number }];
    const { status, body } = await rawSql(name, { query: "select code, source_updated_at, upper(name) as loud from brokers" });
    expect(status).toBe(200);
    expect(body).toStrictEqual({
      command: "SELECT",
      rowCount: 1,
      rows: [{ code: "B1", source_updated_at: "2024-01-02 03:04:05.123456+00", loud: "BROKER" }],
      fields: [
        { name: "code", dataTypeID: 25, tableID: oid, columnID: 2, dataTypeSize: -1, dataTypeModifier: -1, format: "text" },
        // timestamp(6) with time zone: the precision is the modifier.
        {
          name: "source_updated_at",
          dataTypeID: 1184,
          tableID: oid,
          columnID: 4,
          dataTypeSize: 8,
          dataTypeModifier: 6,
          format: "text",
        },
        { name: "loud", dataTypeID: 25, tableID: null, columnID: null, dataTypeSize: -1, dataTypeModifier: -1, format: "text" },
      ],
      rowAsArray: false,
    });
  });

  it("are only served as Postgres's text, the one mode the driver asks for", async () => {
    const { name } = freshSql();
    const absent = await request("/sql", {
      method: "POST",
      headers: { "Neon-Connection-String": connectionString(name) },
      body: JSON.stringify({ query: "select 1 as one" }),
    });
    expect(absent.status).toBe(400);
    for (const raw of ["false", "TRUE"]) {
      const { status, body } = await rawSql(name, { query: "select 1 as one" }, { "Neon-Raw-Text-Output": raw });
      expect({ status, body }, raw).toStrictEqual({
        status: 400,
        body: { message: "only Neon-Raw-Text-Output: true is served, as @neondatabase/serverless sends it" },
      });
    }
  });

  it("answer a statement without rows with its command and row count", async () => {
    const { name, sql } = freshSql();
    await insertBroker(sql, "A", "A", "00000000-0000-4000-8000-000000000001");
    await insertBroker(sql, "B", "B", "00000000-0000-4000-8000-000000000002");
    const { status, body } = await rawSql(name, { query: "update brokers set name = upper(name) || $1", params: ["!"] });
    expect(status).toBe(200);
    expect(body).toStrictEqual({ command: "UPDATE", rowCount: 2, rows: [], fields: [], rowAsArray: false });
  });
});
