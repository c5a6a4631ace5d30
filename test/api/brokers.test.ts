import { describe, expect, it } from "vitest";
import { BrokersResponse } from "../../src/schemas";
import { apiDatabases, getValid } from "../support/api";
import { getJson } from "../support/worker";
import { withInvestor } from "./fixture";

describe("GET /api/brokers", () => {
  it("lists every broker by code, used or not", async () => {
    const { env, expected } = await withInvestor();
    const body = await getValid(env, "/api/brokers", BrokersResponse);
    expect(body).toEqual({ success: true, data: expected.brokers });
  });

  it("returns an empty list before the first sync", async () => {
    const dbs = await apiDatabases();
    expect(await getValid(dbs.env, "/api/brokers", BrokersResponse)).toEqual({ success: true, data: [] });
  });

  it("costs exactly one database round trip", async () => {
    const { dbs } = await withInvestor();
    expect(await dbs.targetTrips(() => getJson(dbs.env, "/api/brokers"))).toBe(1);
  });
});
