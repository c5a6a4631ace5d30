import { describe, expect, it } from "vitest";
import { apiDatabases, NOT_FOUND } from "../support/api";
import { getJson } from "../support/worker";
import { withInvestor } from "./fixture";

describe("errors", () => {
  it("answers unknown routes with the JSON 404 envelope, and a method a known route does not take with 405", async () => {
    const dbs = await apiDatabases();
    const wrongMethod = await getJson(dbs.env, "/api/brokers", { method: "DELETE" });
    expect({ status: wrongMethod.status, body: wrongMethod.body, allow: wrongMethod.headers.get("Allow") }).toEqual({
      status: 405,
      body: { success: false, error: "Method Not Allowed" },
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
        body: { success: false, error: "Bad Request", details: [{ path: "mode", message: "must be delta or full" }] },
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
      expect(body).toEqual({ success: false, error: "Service Unavailable", request_id: headers.get("X-Request-Id") });
    }
  });

  it("keeps the caller's X-Request-Id in the 503 body", async () => {
    const { dbs, customer } = await withInvestor();
    await dbs.fault("target", "error500");
    const { body } = await getJson(dbs.env, `/api/stats/${customer.slug}`, { headers: { "X-Request-Id": "frontend-req-0001" } });
    expect(body).toEqual({ success: false, error: "Service Unavailable", request_id: "frontend-req-0001" });
  });
});
