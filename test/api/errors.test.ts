import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/context";
import { onError } from "../../src/error-handler";
import { ERROR_CODES } from "../../src/errors";
import { requestId } from "../../src/middleware";
import { apiDatabases, NOT_FOUND } from "../support/api";
import { errorLogs } from "../support/logs";
import { getJson } from "../support/worker";
import { withInvestor } from "./fixture";

describe("errors", () => {
  it("answers unknown routes with the JSON 404 envelope, and a method a known route does not take with 405", async () => {
    const dbs = await apiDatabases();
    const wrongMethod = await getJson(dbs.env, "/api/brokers", { method: "DELETE" });
    expect({ status: wrongMethod.status, body: wrongMethod.body, allow: wrongMethod.headers.get("Allow") }).toEqual({
      status: 405,
      body: { success: false, error: "Method Not Allowed", code: "method_not_allowed" },
      allow: "GET, HEAD",
    });
    const unknown = [
      ["GET", "/api/nope"],
      ["GET", "/nope"],
      ["GET", "/api/customers"],
      ["GET", "/api/transactions/a/b/c"],
      ["DELETE", "/api/nope"],
    ] as const;
    for (const [method, path] of unknown) {
      const { status, body, headers } = await getJson(dbs.env, path, { method });
      expect({ status, body, type: headers.get("Content-Type") }, `${method} ${path}`).toEqual({
        status: 404,
        body: NOT_FOUND,
        type: expect.stringMatching(/^application\/json/),
      });
    }
  });

  it("says what is wrong with the sync's mode in the project's own words, like every other parameter", async () => {
    const dbs = await apiDatabases();
    for (const query of ["mode=bogus", "mode=", "mode=FULL", "mode=delta&mode=full"]) {
      const { status, body } = await getJson(dbs.env, `/api/sync?${query}`, {
        method: "POST",
        headers: { "X-Admin-Key": dbs.env.ADMIN_API_KEY! },
      });
      expect({ status, body }, query).toEqual({
        status: 400,
        body: {
          success: false,
          error: "Bad Request",
          code: "bad_request",
          details: [{ path: "mode", message: "must be delta or full" }],
        },
      });
    }
  });

  it("answers 503 with a request id, and nothing internal, when the database fails", async () => {
    const { dbs, customer } = await withInvestor();
    await dbs.fault("target", "error500");
    for (const path of [
      `/api/customers/${customer.slug}`,
      `/api/transactions/${customer.slug}?type=buy`,
      `/api/aggregate/${customer.slug}`,
      "/api/brokers",
    ]) {
      const { status, body, headers } = await getJson(dbs.env, path);
      expect(status, path).toBe(503);
      expect(body).toEqual({
        success: false,
        error: "Service Unavailable",
        code: "database_unavailable",
        request_id: headers.get("X-Request-Id"),
      });
    }
  });

  it("logs every 5xx once, with the request id its body gives", async () => {
    const { dbs, customer } = await withInvestor();
    await dbs.fault("target", "error500");
    let reply: Awaited<ReturnType<typeof getJson>> | undefined;
    const logs = await errorLogs(async () => {
      reply = await getJson(dbs.env, `/api/customers/${customer.slug}`);
    });
    expect(reply!.status).toBe(503);
    expect(logs).toEqual([
      expect.objectContaining({
        event: "database_unavailable",
        request_id: reply!.body.request_id,
        status: 503,
        code: "database_unavailable",
      }),
    ]);

    // An HTTPException of 500 or more that is not one of ours (a library's) is logged too.
    const app = new Hono<AppEnv>()
      .use(requestId)
      .get("/", () => {
        throw new HTTPException(504, { message: "upstream" });
      })
      .onError(onError);
    let res: Response | undefined;
    const thrown = await errorLogs(async () => {
      res = await app.request("/", { headers: { "X-Request-Id": "library-5xx-0001" } });
    });
    expect({ status: res!.status, body: await res!.json() }).toEqual({
      status: 504,
      body: { success: false, error: "Error", code: "internal", request_id: "library-5xx-0001" },
    });
    expect(thrown).toEqual([
      expect.objectContaining({ event: "server_error", request_id: "library-5xx-0001", status: 504, code: "internal" }),
    ]);
  });

  it("answers a page number past every bound with the project's own message", async () => {
    const dbs = await apiDatabases();
    for (const page of ["99999999999999999999", "9007199254740993", "1000000001", "0"]) {
      const { status, body } = await getJson(dbs.env, `/api/transactions/${"a".repeat(26)}?page=${page}`);
      expect({ status, body }, page).toEqual({
        status: 400,
        body: {
          success: false,
          error: "Bad Request",
          code: "bad_request",
          details: [{ path: "page", message: "must be an integer from 1 to 1000000000" }],
        },
      });
    }
  });

  it("names every code it sends in the one list the document's enum is made from", () => {
    expect([...ERROR_CODES].sort()).toEqual(
      [
        "bad_request",
        "database_unavailable",
        "history_building",
        "internal",
        "method_not_allowed",
        "misconfigured",
        "not_found",
        "rate_limited_admin_key",
        "rate_limited_lookup",
        "source_unavailable",
        "sync_running",
        "unauthorized",
      ].sort(),
    );
  });

  it("keeps the caller's X-Request-Id in the 503 body", async () => {
    const { dbs, customer } = await withInvestor();
    await dbs.fault("target", "error500");
    const { body } = await getJson(dbs.env, `/api/stats/${customer.slug}`, { headers: { "X-Request-Id": "frontend-req-0001" } });
    expect(body).toEqual({
      success: false,
      error: "Service Unavailable",
      code: "database_unavailable",
      request_id: "frontend-req-0001",
    });
  });
});
