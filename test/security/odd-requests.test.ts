/**
 * Requests no client should send, answered like any other (issue 7, item 6): methods a known
 * path does not take (405 with Allow), very long URLs, and bodies where none belongs. None may
 * be a 500.
 */
import { describe, expect, it } from "vitest";
import { newSlug } from "../../src/domain/slug";
import { PUBLIC_GETS, pathsOf } from "../support/endpoints";
import { Client, newIp, type Reply } from "../support/worker";
import { withCustomer } from "./helpers";

const NOT_FOUND = { success: false, error: "Not Found", code: "not_found" };
const NOT_ALLOWED = { success: false, error: "Method Not Allowed", code: "method_not_allowed" };
const NO_STORE = { cacheControl: "private, no-store" };

/** What a client reads of an error: its status, its body, Allow and Cache-Control. */
const answer = (reply: Reply) => ({
  status: reply.status,
  body: reply.body,
  allow: reply.headers.get("Allow"),
  cacheControl: reply.headers.get("Cache-Control"),
});

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
  it("answers methods a known path does not take with 405 and Allow, and unknown paths with 404", async () => {
    const { customer, account, dbs } = await withCustomer();
    // workerd only lets through methods it knows (a made-up one is refused before any Worker runs).
    const methods = ["POST", "PUT", "DELETE", "PATCH", "PROPFIND", "MKCOL", "SEARCH", "purge"];
    const client = new Client(dbs.env);
    for (const path of [...knownPaths(customer.slug, account.id), `/c/${customer.slug}`]) {
      for (const method of methods) {
        const reply = await client.send(path, { method, body: method === "POST" || method === "PUT" ? "{}" : undefined });
        expect(answer(reply), `${method} ${path}`).toEqual({ status: 405, body: NOT_ALLOWED, allow: "GET, HEAD", ...NO_STORE });
      }
    }
    // Admin paths: 405 with or without the key, so the key is never looked at.
    const keys: Array<Record<string, string>> = [{ "X-Admin-Key": dbs.env.ADMIN_API_KEY! }, { "X-Admin-Key": "wrong" }, {}];
    for (const headers of keys) {
      for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
        expect(answer(await client.send("/api/sync", { method, headers })), `${method} /api/sync`).toEqual({
          status: 405,
          body: NOT_ALLOWED,
          allow: "POST",
          ...NO_STORE,
        });
      }
      for (const method of ["POST", "PUT", "DELETE"]) {
        expect(answer(await client.send("/api/sync/status", { method, headers })), `${method} /api/sync/status`).toEqual({
          status: 405,
          body: NOT_ALLOWED,
          allow: "GET, HEAD",
          ...NO_STORE,
        });
      }
    }
    // HEAD is GET without a body: a path without GET refuses it too.
    const head = await client.send("/api/sync", { method: "HEAD" });
    expect({ status: head.status, text: head.text, allow: head.headers.get("Allow") }).toEqual({
      status: 405,
      text: "",
      allow: "POST",
    });
    // Paths the service does not have stay 404, whatever the method.
    for (const path of ["/api/nope", "/api/customers", "/api/sync/", "/api/sync/x", `/c/${customer.slug}/x`, "/"]) {
      for (const method of ["GET", "POST", "DELETE"]) {
        expect(answer(await client.send(path, { method })), `${method} ${path}`).toEqual({
          status: 404,
          body: NOT_FOUND,
          allow: null,
          ...NO_STORE,
        });
      }
    }
    expect(await dbs.target`select * from sync_runs`).toEqual([]);
  });

  it("answers preflights with 204 on every path, whatever method they ask about", async () => {
    const { customer, client } = await withCustomer();
    for (const path of ["/api/sync", "/api/sync/status", `/api/customers/${customer.slug}`, `/c/${customer.slug}`]) {
      for (const method of ["GET", "POST", "DELETE"]) {
        const reply = await client.send(path, {
          method: "OPTIONS",
          headers: { Origin: "https://app.example", "Access-Control-Request-Method": method },
        });
        expect({ status: reply.status, text: reply.text }, `${method} ${path}`).toEqual({ status: 204, text: "" });
      }
    }
  });

  it("counts a 405 neither as a wrong admin key nor as an unknown slug", async () => {
    const { customer, client } = await withCustomer();
    // Both brakes stop a client after 10 wrong keys and 30 misses a minute (wrangler.toml).
    for (let i = 0; i < 40; i++) {
      expect((await client.send("/api/sync/status", { method: "POST", headers: { "X-Admin-Key": "wrong" } })).status).toBe(405);
      expect((await client.send(`/api/customers/${newSlug()}`, { method: "DELETE" })).status).toBe(405);
    }
    const status = await client.send("/api/sync/status", { headers: { "X-Admin-Key": client.env.ADMIN_API_KEY! } });
    expect(status.status, status.text).toBe(200);
    expect((await client.get(`/api/customers/${customer.slug}`)).status).toBe(200);
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
        body: { success: false, error: "Unauthorized", code: "unauthorized" },
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
