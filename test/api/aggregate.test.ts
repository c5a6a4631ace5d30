import { describe, expect, it } from "vitest";
import { EMPTY_METRICS } from "../../src/domain/empty";
import { AggregateResponse } from "../../src/schemas";
import { getError, getValid, NOT_FOUND } from "../support/api";
import { getJson } from "../support/worker";
import { MALFORMED_SLUGS, withInvestor } from "./fixture";

describe("GET /api/aggregate/:slug", () => {
  it("returns the profile, portfolio, stats and analytics together", async () => {
    const { env, customer, expected } = await withInvestor();
    const body = await getValid(env, `/api/aggregate/${customer.slug}`, AggregateResponse);
    expect(body).toEqual({
      success: true,
      data: { customer: expected.customer, portfolio: expected.portfolio, stats: expected.stats, analytics: expected.analytics },
    });
  });

  it("carries empty metrics for a customer whose metrics are not computed yet", async () => {
    const { dbs, customer, expected } = await withInvestor();
    await dbs.target`delete from customer_metrics where customer_id = ${customer.id}`;
    const body = await getValid(dbs.env, `/api/aggregate/${customer.slug}`, AggregateResponse);
    // With nothing realized, the total return is the valuation's unrealized P&L.
    const { valuation } = expected.stats;
    expect(body.data.stats).toEqual({ ...EMPTY_METRICS.stats, total_return: valuation.unrealized_pnl, valuation });
    expect(body.data.analytics).toEqual(EMPTY_METRICS.analytics);
  });

  it("answers 404 for an unknown slug", async () => {
    const { env } = await withInvestor();
    expect(await getError(env, "/api/aggregate/unknownslugaaaaaaaaaaaaaaaa", 404)).toEqual(NOT_FOUND);
  });

  it("answers 404 for a string that cannot be a slug", async () => {
    const { env } = await withInvestor();
    for (const slug of MALFORMED_SLUGS) {
      expect(await getError(env, `/api/aggregate/${encodeURIComponent(slug)}`, 404), slug).toEqual(NOT_FOUND);
    }
  });

  it("costs exactly one database round trip for everything", async () => {
    const { dbs, customer } = await withInvestor();
    expect(await dbs.targetTrips(() => getJson(dbs.env, `/api/aggregate/${customer.slug}`))).toBe(1);
  });
});
