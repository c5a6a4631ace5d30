import { describe, expect, it } from "vitest";
import { PortfolioResponse } from "../../src/schemas";
import { Book, writeTarget } from "../support/book";
import { apiDatabases, getError, getValid, NOT_FOUND } from "../support/api";
import { getJson } from "../support/worker";
import { MALFORMED_SLUGS, withInvestor } from "./fixture";

describe("GET /api/portfolio/:slug", () => {
  it("returns the holdings of every account by stock code, then account, money as numbers", async () => {
    const { env, customer, expected } = await withInvestor();
    const body = await getValid(env, `/api/portfolio/${customer.slug}`, PortfolioResponse);
    expect(body).toEqual({ success: true, data: expected.portfolio });
  });

  it("returns an empty list for a customer who holds nothing", async () => {
    const dbs = await apiDatabases();
    const book = new Book();
    const { customer } = book.simpleCustomer();
    await writeTarget(dbs.target, book);
    expect(await getValid(dbs.env, `/api/portfolio/${customer.slug}`, PortfolioResponse)).toEqual({ success: true, data: [] });
  });

  it("answers 404 for an unknown slug", async () => {
    const { env } = await withInvestor();
    expect(await getError(env, "/api/portfolio/unknownslugaaaaaaaaaaaaaaaa", 404)).toEqual(NOT_FOUND);
  });

  it("answers 404 for a string that cannot be a slug", async () => {
    const { env } = await withInvestor();
    for (const slug of MALFORMED_SLUGS) {
      expect(await getError(env, `/api/portfolio/${encodeURIComponent(slug)}`, 404), slug).toEqual(NOT_FOUND);
    }
  });

  it("costs exactly one database round trip", async () => {
    const { dbs, customer } = await withInvestor();
    expect(await dbs.targetTrips(() => getJson(dbs.env, `/api/portfolio/${customer.slug}`))).toBe(1);
  });
});
