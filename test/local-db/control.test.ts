/**
 * The local database server's test endpoints: request counts (`/__stats`), fault injection
 * (`/__fault`) and dropping a database (`/__drop`).
 */
import { NeonDbError } from "@neondatabase/serverless";
import { describe, expect, it } from "vitest";
import { requestCount, setFault } from "../support/databases";
import { freshSql, insertBroker, rawSql, rejection, request } from "./support";

// A fault set here is turned off when its test ends, with the database (freshSql).
const fault = setFault;

describe("request counts", () => {
  it("count each /sql request per database, a batch once", async () => {
    const a = freshSql();
    const b = freshSql();
    expect(await requestCount(a.name)).toBe(0);
    await a.sql`select 1`;
    expect(await requestCount(a.name)).toBe(1);
    await a.sql.transaction((q) => [q`select 1`, q`select 2`, q`select 3`]);
    expect(await requestCount(a.name)).toBe(2);
    // A failed request counts too.
    await expect(a.sql`select 1 / 0`).rejects.toMatchObject({ code: "22012" });
    expect(await requestCount(a.name)).toBe(3);
    await rawSql(a.name, { queries: [{ query: "select 1" }, { query: "select 2" }] });
    expect(await requestCount(a.name)).toBe(4);
    expect(await requestCount(b.name)).toBe(0);
    await b.sql`select 1`;
    expect([await requestCount(a.name), await requestCount(b.name)]).toStrictEqual([4, 1]);
  });

  it("list every database in /__stats", async () => {
    const a = freshSql();
    const b = freshSql("backoffice");
    await Promise.all([a.sql`select 1`, b.sql`select 1`, b.sql`select 2`]);
    const { status, body } = await request("/__stats");
    expect(status).toBe(200);
    expect(body.databases).toMatchObject({ [a.name]: 1, [b.name]: 2 });
  });
});

describe("fault injection", () => {
  it("makes the driver fail with HTTP 500 until turned off", async () => {
    const { name, sql } = freshSql();
    const bystander = freshSql();
    await sql`select 1`;
    await fault(name, "error500");
    const error = await rejection(sql`select 1`);
    expect(error).toBeInstanceOf(NeonDbError);
    expect((error as NeonDbError).message).toBe(
      `Server error (HTTP status 500): {"message":"simulated outage of database \\"${name}\\""}`,
    );
    expect(await rawSql(name, { query: "select 1" })).toMatchObject({
      status: 500,
      body: { message: `simulated outage of database "${name}"` },
    });
    // Only that database is down.
    expect(await bystander.sql`select 1 as one`).toStrictEqual([{ one: 1 }]);

    expect(await request(`/__fault?database=${name}&mode=off`, { method: "POST" })).toMatchObject({
      status: 200,
      body: { database: name, mode: "off" },
    });
    expect(await sql`select 1 as one`).toStrictEqual([{ one: 1 }]);
  });

  it("can leave a request unanswered until the client gives up", async () => {
    const { name, sql } = freshSql();
    await sql`select 1`;
    await fault(name, "timeout");
    const error = await rejection(sql.query("select 1", [], { fetchOptions: { signal: AbortSignal.timeout(300) } }));
    expect(error).toBeInstanceOf(NeonDbError);
    expect((error as NeonDbError).message).toBe(
      "Error connecting to database: TimeoutError: The operation was aborted due to timeout",
    );
    await setFault(name, "off");
    expect(await sql`select 1 as one`).toStrictEqual([{ one: 1 }]);
  });

  it("refuses an unknown mode or a missing database", async () => {
    expect(await request("/__fault?database=investments_x&mode=flaky", { method: "POST" })).toMatchObject({
      status: 400,
      body: { message: 'mode must be error500, timeout or off, not "flaky"' },
    });
    expect(await request("/__fault?mode=off", { method: "POST" })).toMatchObject({
      status: 400,
      body: { message: 'missing query parameter "database"' },
    });
  });
});

describe("dropping a database", () => {
  it("starts it afresh on the next request", async () => {
    const { name, sql } = freshSql();
    await insertBroker(sql);
    expect(await request(`/__drop?database=${name}`, { method: "POST" })).toMatchObject({
      status: 200,
      body: { dropped: name },
    });
    expect(await sql`select code from brokers`).toStrictEqual([]);
  });
});
