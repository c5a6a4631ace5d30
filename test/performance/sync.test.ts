/**
 * What the sync does for the performance answer: it builds a deployed target's position steps
 * by itself on upgrade (503 with Retry-After until a customer's are built, never a wrong
 * figure), and a price day costs it the same statements whoever holds the stock.
 */
import { describe, expect, it } from "vitest";
import { Book } from "../support/book";
import { getJson } from "../support/worker";
import { insertSource, synced, withSource } from "../sync/helpers";

/** `customers` customers holding FPT, each with a buy, a sell and a close a day. */
function holdersBook(customers: number) {
  const book = new Book();
  const broker = book.broker();
  const staff = book.staffMember();
  const slugs: string[] = [];
  for (let i = 0; i < customers; i++) {
    const customer = book.customer({ staff_id: staff.id });
    const account = book.account({ customer_id: customer.id, broker_id: broker.id });
    book.trade({ account_id: account.id, trade_date: "2024-06-03", type: "buy", quantity: 100 + i, price: "100000" });
    book.trade({ account_id: account.id, trade_date: "2024-06-05", type: "sell", quantity: 10, price: "103000" });
    book.holding({ account_id: account.id, quantity: 90 + i, avg_cost: "100000", total_cost: String(100_000 * (90 + i)) });
    slugs.push(customer.slug);
  }
  for (const [trade_date, fpt, index] of [
    ["2024-06-03", "101000", "1260"],
    ["2024-06-04", "102000", "1255.5"],
    ["2024-06-05", "103000", "1270"],
  ] as const) {
    book.price({ stock_code: "FPT", trade_date, close_price: fpt });
    book.price({ stock_code: "VNINDEX", trade_date, close_price: index });
  }
  return { book, slugs };
}

describe("performance and the sync", () => {
  it("a target upgraded from before position steps builds them by itself, answering 503 until then", async () => {
    const { book, slugs } = holdersBook(2);
    const dbs = await withSource(book);
    await synced(dbs.env);
    const fresh = await getJson(dbs.env, `/api/performance/${slugs[0]}?to=2024-06-05`);
    expect(fresh.status).toBe(200);

    // As the code before position steps left the target: no steps, the rules version before them.
    await dbs.target`delete from position_steps`;
    await dbs.target`update metrics_rules set version = version - 1`;
    const building = await getJson(dbs.env, `/api/performance/${slugs[0]}`);
    expect(building.status).toBe(503);
    expect(building.headers.get("Retry-After")).toBe("60");
    expect(building.headers.get("X-Cache")).toBeNull();

    // Nothing changed in the source: the rules version alone rebuilds the steps.
    expect(await synced(dbs.env)).toMatchObject({ synced_rows: 0, holdings_recomputed: 2 });
    const rebuilt = await getJson(dbs.env, `/api/performance/${slugs[0]}`);
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.body).toEqual({ success: true, data: { ...(fresh.body as { data: object }).data, to: null } });
  });

  it("a price day issues as many statements for 1,000 holders of the stock as for one, and moves their answers", {
    timeout: 300_000,
  }, async () => {
    const statements: number[] = [];
    for (const holders of [1, 1000]) {
      const { book, slugs } = holdersBook(holders);
      const dbs = await withSource(book);
      await synced(dbs.env);
      const before = await getJson(dbs.env, `/api/performance/${slugs[0]}`);
      expect(before.body).toMatchObject({ data: { end_date: "2024-06-05", end_value: 9270000 } });

      // A close corrected on an earlier day, and the next market day's closes.
      await dbs.source`update stock_prices set close_price = 101500, updated_at = now() where stock_code = 'FPT' and trade_date = '2024-06-03'`;
      await insertSource(dbs.source, "stock_prices", [
        new Book().price({
          stock_code: "FPT",
          trade_date: "2024-06-06",
          close_price: "104000",
          updated_at: "2025-07-01T00:00:00Z",
        }),
        new Book().price({
          stock_code: "VNINDEX",
          trade_date: "2024-06-06",
          close_price: "1280",
          updated_at: "2025-07-01T00:00:00Z",
        }),
      ]);
      const requests = await dbs.targetRequests();
      expect(await synced(dbs.env)).toMatchObject({
        synced_rows: 3,
        prices_changed: 2,
        metrics_recomputed: 0,
        holdings_recomputed: 0,
      });
      statements.push((await dbs.targetRequests()) - requests);

      const after = await getJson(dbs.env, `/api/performance/${slugs[0]}`);
      expect(after.headers.get("X-Cache")).toBe("MISS");
      expect(after.body).toMatchObject({
        data: { end_date: "2024-06-06", end_value: 9360000, points: [{}, { date: "2024-06-03", value: 10150000 }, {}, {}, {}] },
      });
    }
    expect(statements[1]).toBe(statements[0]);
  });
});
