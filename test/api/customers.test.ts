import { describe, expect, it } from "vitest";
import { CustomerResponse } from "../../src/schemas";
import { Book, writeTarget } from "../support/book";
import { apiDatabases, getError, getValid, NOT_FOUND } from "../support/api";
import { getJson } from "../support/worker";
import { MALFORMED_SLUGS, withInvestor } from "./fixture";

describe("GET /api/customers/:slug", () => {
  it("returns the profile with staff and accounts, accounts by broker code then number", async () => {
    const { env, customer, expected } = await withInvestor();
    const body = await getValid(env, `/api/customers/${customer.slug}`, CustomerResponse);
    expect(body).toEqual({ success: true, data: expected.customer });
  });

  it("returns an empty account list for a customer without accounts", async () => {
    const dbs = await apiDatabases();
    const book = new Book();
    const staff = book.staffMember();
    const customer = book.customer({ staff_id: staff.id });
    await writeTarget(dbs.target, book);
    const body = await getValid(dbs.env, `/api/customers/${customer.slug}`, CustomerResponse);
    expect(body.data.accounts).toEqual([]);
  });

  it("answers 404 for an unknown slug", async () => {
    const { env } = await withInvestor();
    expect(await getError(env, "/api/customers/unknownslugaaaaaaaaaaaaaaaa", 404)).toEqual(NOT_FOUND);
  });

  it("answers 404 for a string that cannot be a slug", async () => {
    const { env } = await withInvestor();
    for (const slug of MALFORMED_SLUGS) {
      expect(await getError(env, `/api/customers/${encodeURIComponent(slug)}`, 404), slug).toEqual(NOT_FOUND);
    }
  });

  it("costs exactly one database round trip, found or not", async () => {
    const { dbs, customer } = await withInvestor();
    expect(await dbs.targetTrips(() => getJson(dbs.env, `/api/customers/${customer.slug}`))).toBe(1);
    expect(await dbs.targetTrips(() => getJson(dbs.env, "/api/customers/unknownslugaaaaaaaaaaaaaaaa"))).toBe(1);
  });

  it("costs a malformed slug the same one round trip as an unknown one, so timing cannot tell them apart", async () => {
    const { dbs } = await withInvestor();
    for (const slug of MALFORMED_SLUGS) {
      expect(await dbs.targetTrips(() => getJson(dbs.env, `/api/customers/${encodeURIComponent(slug)}`)), slug).toBe(1);
    }
  });
});
