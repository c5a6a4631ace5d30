/**
 * Requests no client should send, answered like any other (issue 7, item 6): unknown methods
 * on known paths, very long URLs, and bodies where none belongs. None may be a 500.
 */
import { describe, expect, it } from "vitest";
import { PUBLIC_GETS, pathsOf } from "../support/endpoints";
import { Client, newIp, type Reply } from "../support/worker";
import { withCustomer } from "./helpers";

const NOT_FOUND = { success: false, error: "Not Found" };

/** Every public GET, for one customer and account. */
const knownPaths = (slug: string, accountId: string) => pathsOf(PUBLIC_GETS, { slug, accountId });

/**
 * A GET that carries a body. Fetch refuses to build one (a GET "cannot have a body"), but HTTP
 * clients can send it; the Worker sees a request whose method is GET and whose body is there.
 */
function getWithBody(url: string, body: string, headers: Record<string, string> = {}): Request {
  const request = new Request(url, { method: "POST", body, headers });
  Object.defineProperty(request, "method", { value: "GET" });
  return request;
}

function expectEnvelope(reply: Reply, what: string) {
  expect(reply.status, what).toBeLessThan(500);
  expect(reply.headers.get("Content-Type"), what).toMatch(/^application\/json/);
  expect(typeof reply.body?.success, what).toBe("boolean");
}

describe("odd requests", () => {
  it("answers methods a path does not have with the 404 envelope", async () => {
    const { customer, account, dbs } = await withCustomer();
    // workerd only lets through methods it knows (a made-up one is refused before any Worker runs).
    const methods = ["POST", "PUT", "DELETE", "PATCH", "PROPFIND", "MKCOL", "SEARCH", "purge"];
    for (const path of knownPaths(customer.slug, account.id)) {
      for (const method of methods) {
        const reply = await new Client(dbs.env).send(path, {
          method,
          body: method === "POST" || method === "PUT" ? "{}" : undefined,
        });
        expect({ status: reply.status, body: reply.body }, `${method} ${path}`).toEqual({ status: 404, body: NOT_FOUND });
      }
    }
    for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
      const reply = await new Client(dbs.env).send("/api/sync", { method, headers: { "X-Admin-Key": dbs.env.ADMIN_API_KEY! } });
      expect({ status: reply.status, body: reply.body }, `${method} /api/sync`).toEqual({ status: 404, body: NOT_FOUND });
    }
    expect(await dbs.target`select * from sync_runs`).toEqual([]);
  });

  it("answers very long URLs without a 500", async () => {
    const { customer, client } = await withCustomer();
    for (const size of [2_048, 16_384, 65_536, 262_144]) {
      const long = "a".repeat(size);
      const cases = [
        `/api/customers/${long}`,
        `/api/transactions/${customer.slug}/${long}`,
        `/api/${long}`,
        `/${long}`,
        `/api/transactions/${customer.slug}?stock_code=${long}`,
        `/api/transactions/${customer.slug}?junk=${long}`,
        `/api/transactions/${customer.slug}?${"page=1&".repeat(size / 7)}`,
        `/api/customers/${customer.slug}?${encodeURIComponent("é").repeat(size / 6)}`,
      ];
      for (const path of cases) {
        const reply = await client.from(newIp()).get(path);
        expectEnvelope(reply, `${path.slice(0, 60)}… (${path.length} chars)`);
      }
    }
    // An unknown parameter of any length is ignored.
    expect((await client.get(`/api/customers/${customer.slug}?x=${"y".repeat(262_144)}`)).status).toBe(200);
  });

  it("ignores a body on GET and on HEAD, whatever its type", async () => {
    const { customer, account, dbs } = await withCustomer();
    const client = new Client(dbs.env);
    const bodies: Array<[string, string]> = [
      ['{"slug":"x","per_page":100000}', "application/json"],
      ["{not json", "application/json"],
      ["' or 1=1; --", "text/plain"],
      ["a=1&page=0", "application/x-www-form-urlencoded"],
      ["x".repeat(1_000_000), "application/octet-stream"],
    ];
    for (const path of knownPaths(customer.slug, account.id)) {
      for (const [body, type] of bodies) {
        const reply = await client.send(getWithBody(`${client.origin}${path}`, body, { "Content-Type": type }));
        expect(reply.status, `GET ${path} with ${type}`).toBe(200);
        if (path !== "/api/docs") expect(reply.headers.get("Content-Type")).toMatch(/^application\/json/);
      }
    }
    const head = new Request(`${client.origin}/api/customers/${customer.slug}`, { method: "POST", body: "{}" });
    Object.defineProperty(head, "method", { value: "HEAD" });
    const reply = await client.send(head);
    expect({ status: reply.status, text: reply.text }).toEqual({ status: 200, text: "" });
  });

  it("ignores a body on POST /api/sync: junk is 401 without the key and a normal run with it", async () => {
    const { dbs } = await withCustomer();
    const client = new Client(dbs.env);
    for (const body of ["{not json", '{"mode":"full","__proto__":{"admin":true}}', "x".repeat(1_000_000)]) {
      const reply = await client.send("/api/sync", { method: "POST", body, headers: { "Content-Type": "application/json" } });
      expect({ status: reply.status, body: reply.body }).toEqual({
        status: 401,
        body: { success: false, error: "Unauthorized" },
      });
    }
    const run = await client.send("/api/sync", {
      method: "POST",
      body: "{not json",
      headers: { "Content-Type": "application/json", "X-Admin-Key": dbs.env.ADMIN_API_KEY! },
    });
    expect(run.status, run.text).toBe(200);
    expect(run.body.data.mode).toBe("delta");
  });
});
