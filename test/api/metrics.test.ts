import { describe, expect, it } from "vitest";
import { computeMetrics } from "../../src/domain";
import { EMPTY_METRICS } from "../../src/domain/empty";
import { AnalyticsResponse, StatsResponse } from "../../src/schemas";
import { getError, getValid, NOT_FOUND } from "../support/api";
import { getJson } from "../support/worker";
import { MALFORMED_SLUGS, withInvestor } from "./fixture";

// Stats and analytics are two views of the same stored row, so one suite covers both.
describe.each([
  { endpoint: "stats", metric: "stats", schema: StatsResponse },
  { endpoint: "analytics", metric: "analytics", schema: AnalyticsResponse },
] as const)("GET /api/$endpoint/:slug", ({ endpoint, metric, schema }) => {
  it("returns the customer's metrics", async () => {
    const { env, customer, expected } = await withInvestor();
    const body = await getValid(env, `/api/${endpoint}/${customer.slug}`, schema);
    expect(body).toEqual({ success: true, data: expected[metric] });
  });

  it("reads the metrics the sync stored rather than computing them", async () => {
    const { dbs, customer, expected } = await withInvestor();
    const stored = { ...expected[metric], marker: "stored" };
    await dbs.target`update customer_metrics set ${dbs.target.unsafe(metric)} = ${JSON.stringify(stored)}::jsonb where customer_id = ${customer.id}`;
    const { body } = await getJson(dbs.env, `/api/${endpoint}/${customer.slug}`);
    expect(body.data.marker).toBe("stored");
  });

  it("returns empty metrics for a customer whose metrics are not computed yet", async () => {
    const { dbs, customer, expected } = await withInvestor();
    await dbs.target`delete from customer_metrics where customer_id = ${customer.id}`;
    const body = await getValid(dbs.env, `/api/${endpoint}/${customer.slug}`, schema);
    // The valuation is read from the holdings and their closes, which are there already; with
    // nothing realized, the total return is its unrealized P&L.
    const { valuation } = expected.stats;
    const data =
      metric === "stats" ? { ...EMPTY_METRICS.stats, total_return: valuation.unrealized_pnl, valuation } : EMPTY_METRICS[metric];
    expect(body).toEqual({ success: true, data });
    expect(EMPTY_METRICS).toEqual(computeMetrics([]));
  });

  it("answers 404 for an unknown slug", async () => {
    const { env } = await withInvestor();
    expect(await getError(env, `/api/${endpoint}/unknownslugaaaaaaaaaaaaaaaa`, 404)).toEqual(NOT_FOUND);
  });

  it("answers 404 for a string that cannot be a slug", async () => {
    const { env } = await withInvestor();
    for (const slug of MALFORMED_SLUGS) {
      expect(await getError(env, `/api/${endpoint}/${encodeURIComponent(slug)}`, 404), slug).toEqual(NOT_FOUND);
    }
  });

  it("costs exactly one database round trip", async () => {
    const { dbs, customer } = await withInvestor();
    expect(await dbs.targetTrips(() => getJson(dbs.env, `/api/${endpoint}/${customer.slug}`))).toBe(1);
  });
});
