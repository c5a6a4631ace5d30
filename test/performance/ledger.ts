/**
 * Books for the performance suites: one customer whose ledger a test writes trade by trade,
 * the benchmark's closes and the stocks' closes, synced through the real sync; and the answer of
 * GET /api/performance/:slug beside the reference's (./reference.ts) for the same query.
 */
import { expect } from "vitest";
import type { TransactionRow } from "../../src/db/source";
import { Performance } from "../../src/schemas/performance";
import { expectSchema } from "../support/api";
import { Book } from "../support/book";
import type { TestDatabases } from "../support/databases";
import { getJson } from "../support/worker";
import { synced, withSource } from "../sync/helpers";
import { type PerformanceQueryInput, referencePerformance } from "./reference";
import { referenceMoved } from "./reference-positions";

/** A customer with one account (SSI) and helpers that write its ledger and the closes. */
export function ledger(book = new Book()) {
  // A second customer in the same book shares its broker and staff member.
  const broker = book.brokers[0] ?? book.broker();
  const staff = book.staff[0] ?? book.staffMember();
  const customer = book.customer({ staff_id: staff.id });
  const account = book.account({ customer_id: customer.id, broker_id: broker.id });
  const trade =
    (type: "buy" | "sell") =>
    (trade_date: string, quantity: number, price: string, p: Partial<TransactionRow> = {}) =>
      book.trade({ account_id: account.id, trade_date, type, quantity, price, fee: "0", personal_tax: "0", ...p });
  return {
    book,
    customer,
    account,
    broker,
    staff,
    buy: trade("buy"),
    sell: trade("sell"),
    /** A close of `code` (the benchmark VNINDEX unless told) on `date`. */
    close: (trade_date: string, close_price: string, stock_code = "VNINDEX") =>
      book.price({ stock_code, trade_date, close_price }),
    /** A close of `code` (the benchmark VNINDEX unless told) for each [date, close]. */
    closes: (pairs: readonly (readonly [string, string])[], stock_code = "VNINDEX") =>
      pairs.map(([trade_date, close_price]) => book.price({ stock_code, trade_date, close_price })),
  };
}

/** Fresh databases with `book` in the source, synced through POST /api/sync; no edge cache (each request comes from its own client address). */
export async function syncedBook(book: Book): Promise<TestDatabases> {
  const dbs = await withSource(book, { CACHE_TTL_SECONDS: "0" });
  await synced(dbs.env);
  return dbs;
}

export const queryString = (query: PerformanceQueryInput) => {
  const text = new URLSearchParams(query as Record<string, string>).toString();
  return text ? `?${text}` : "";
};

/** GET /api/performance/:slug with `query`. */
export const performanceOf = (dbs: TestDatabases, slug: string, query: PerformanceQueryInput = {}) =>
  getJson(dbs.env, `/api/performance/${slug}${queryString(query)}`);

/** The endpoint's `data` for this query: a 200 whose body matches the response schema. */
export async function servedPerformance(dbs: TestDatabases, slug: string, query: PerformanceQueryInput = {}) {
  const { status, body } = await performanceOf(dbs, slug, query);
  expect(status, `${queryString(query)} ${JSON.stringify(body)}`).toBe(200);
  expect(body.success).toBe(true);
  expectSchema(Performance, body.data);
  return body.data;
}

/** The whole answer the endpoint must give: the period's figures (./reference.ts), then what moved it (./reference-positions.ts). */
export function referenceAnswer(book: Book, customerId: string, query: PerformanceQueryInput) {
  const { points, ...figures } = referencePerformance(book, customerId, query);
  return { ...figures, ...referenceMoved(book, customerId, query), points };
}

/**
 * The reference and the endpoint both answer exactly `expected` (a whole `data`: the period's
 * figures, and with `drawdown` or `positions` what moved it too), or, with `partial`, both answer
 * alike and match the figures given. The endpoint answers the whole reference in every case.
 */
export async function expectPerformance(
  dbs: TestDatabases,
  book: Book,
  customer: { id: string; slug: string },
  query: PerformanceQueryInput,
  expected: Record<string, unknown>,
  options: { partial?: boolean } = {},
) {
  const whole = referenceAnswer(book, customer.id, query);
  const moved = "drawdown" in expected || "positions" in expected;
  const reference = moved ? whole : referencePerformance(book, customer.id, query);
  const label = queryString(query) || "(no query)";
  if (options.partial) expect(reference, `reference ${label}`).toMatchObject(expected);
  else expect(reference, `reference ${label}`).toEqual(expected);
  const served = await servedPerformance(dbs, customer.slug, query);
  if (options.partial) expect(served, `served ${label}`).toMatchObject(expected);
  expect(served, `served ${label}`).toEqual(whole);
}
