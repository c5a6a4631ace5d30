/**
 * The customer's page in the edge cache: the API's cache, keys and invalidation. A miss costs one
 * database round trip and a hit none, as for the API (test/cache/hits.test.ts); a sync that
 * changes the customer (a trade, a dividend or a share credit) makes the page fresh.
 */
import { describe, expect, it } from "vitest";
import { addTrade, Book, investorBook, writeSource } from "../support/book";
import { cachedClient, withInvestor } from "../cache/helpers";
import { changeSource, softDelete } from "../sync/helpers";
import { figure, historyIds, rowIds, tableRows } from "./html";

describe("the customer's page in the edge cache", () => {
  it("is a MISS with one round trip, then a HIT with none, the same body and the page's own headers", async () => {
    const { client, slug } = await withInvestor();
    const path = `/c/${slug}`;
    const miss = await client.counted(path);
    expect(miss).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    const hit = await client.counted(path);
    expect(hit).toMatchObject({ status: 200, cache: "HIT", trips: 0 });
    expect(hit.text).toBe(miss.text);
    for (const name of ["Content-Type", "Content-Security-Policy", "Content-Language", "ETag", "X-Robots-Tag"]) {
      expect({ name, value: hit.headers.get(name) }).toEqual({ name, value: miss.headers.get(name) });
    }
    expect(hit.headers.get("Content-Security-Policy")).toMatch(/^default-src 'none'; style-src 'sha256-/);
    expect(hit.headers.get("Cache-Control")).toMatch(/^private, max-age=\d+$/);
    expect(hit.headers.get("Vary")).toContain("Accept-Language");

    const notModified = await client.counted(path, { "If-None-Match": miss.headers.get("ETag")! });
    expect(notModified).toMatchObject({ status: 304, text: "", cache: "HIT", trips: 0 });
  });

  it("keys on the language and the normalised filters, like the API's history", async () => {
    const { client, slug } = await withInvestor();
    const base = `/c/${slug}`;
    const vi = await client.counted(base);
    expect(vi).toMatchObject({ cache: "MISS", trips: 1 });
    const same = [
      [`${base}?lang=vi`, {}],
      [`${base}?page=1&per_page=10&utm_source=mail`, {}],
      [`${base}?broker=&stock_code=&type=&start_date=&end_date=`, {}],
      // The default range, written or not.
      [`${base}?range=max`, {}],
      [`${base}?range=`, {}],
      [base, { "Accept-Language": "vi-VN,vi;q=0.9" }],
    ] as const;
    for (const [path, headers] of same) {
      expect({ path, cache: (await client.counted(path, headers)).cache }).toEqual({ path, cache: "HIT" });
    }

    const en = await client.counted(`${base}?lang=en`);
    expect(en).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    expect(en.text).not.toBe(vi.text);
    const byHeader = await client.counted(base, { "Accept-Language": "en-GB,en;q=0.9" });
    expect(byHeader).toMatchObject({ cache: "HIT", trips: 0 });
    expect(byHeader.text).toBe(en.text);

    const filtered = await client.counted(`${base}?type=buy&broker=SSI&stock_code=FPT`);
    expect(filtered).toMatchObject({ cache: "MISS", trips: 1 });
    expect(await client.counted(`${base}?stock_code=fpt&broker=ssi&type=buy&type=sell`)).toMatchObject({
      cache: "HIT",
      trips: 0,
    });
    expect(await client.counted(`${base}?type=buy&broker=SSI&stock_code=FPT&page=2`)).toMatchObject({ cache: "MISS", trips: 1 });

    // The performance range is part of the key: another range is another page.
    const year = await client.counted(`${base}?range=1y`);
    expect(year).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    expect(year.text).not.toBe(vi.text);
    expect(await client.counted(`${base}?range=1y&lang=vi`)).toMatchObject({ cache: "HIT", trips: 0 });
  });

  it("never stores a 400 or a 404 page", async () => {
    const { client, slug } = await withInvestor();
    for (const path of [`/c/${slug}?per_page=101`, "/c/unknownslugaaaaaaaaaaaaaaaa"]) {
      for (let i = 0; i < 2; i++) {
        const reply = await client.counted(path);
        expect({ path, cache: reply.cache, trips: reply.trips }).toEqual({ path, cache: null, trips: 1 });
        expect(reply.headers.get("Cache-Control")).toBe("private, no-store");
      }
    }
  });

  it("is fresh after a sync that changes the customer, like the API", async () => {
    const client = await cachedClient();
    const investor = investorBook(new Book());
    await writeSource(client.dbs.source, investor.book);
    await client.sync();
    const slug = investor.customer.slug;
    const page = `/c/${slug}`;
    const api = `/api/stats/${slug}`;

    const before = await client.counted(page);
    expect(before).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    await client.get(api);
    expect(await client.counted(page)).toMatchObject({ cache: "HIT", trips: 0 });
    expect(historyIds(before.text)).toHaveLength(3);

    const added = await addTrade(client.dbs.source, investor.accounts.ssi.id);
    expect(await client.sync()).toMatchObject({ changed_customers: 1 });

    const after = await client.counted(page);
    expect(after).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    expect(historyIds(after.text)).toEqual([added.id, ...historyIds(before.text)]);
    expect(tableRows(before.text, "monthly_trade_counts").flat()).toEqual(["1", "1", "1"]);
    expect(tableRows(after.text, "monthly_trade_counts").flat()).toEqual(["1", "1", "1", "0", "1"]);
    expect(await client.counted(api)).toMatchObject({ cache: "MISS", trips: 1 });
    expect(await client.counted(page)).toMatchObject({ cache: "HIT", trips: 0 });
  });

  it("is fresh after a sync that changes what the accounts received", async () => {
    const client = await cachedClient();
    const investor = investorBook();
    const dividend = investor.book.corporateAction({
      account_id: investor.accounts.ssi.id,
      type: "cash_dividend",
      ex_date: "2024-05-10",
      pay_date: "2024-06-01",
      quantity: 100,
      gross_amount: "200000",
      tax: "10000",
    });
    const credit = investor.book.corporateAction({
      account_id: investor.accounts.vnd.id,
      stock_code: "HPG",
      isin_code: "VN000000HPG4",
      type: "share_dividend",
      ex_date: "2024-04-01",
      quantity: 30,
    });
    await writeSource(client.dbs.source, investor.book);
    await client.sync();
    const page = `/c/${investor.slug}`;
    const before = await client.counted(page);
    expect(before).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    expect(tableRows(before.text, "cash_dividends")).toEqual([["2024-05-10", "2024-06-01", "100", "200000", "10000", "190000"]]);
    expect(rowIds(before.text, "share_credits")).toEqual([credit.id]);
    expect(await client.counted(page)).toMatchObject({ cache: "HIT", trips: 0 });

    await changeSource(client.dbs.source, "corporate_actions", dividend.id, { gross_amount: "300000.5", tax: "15000.025" });
    await softDelete(client.dbs.source, "corporate_actions", credit.id);
    expect(await client.sync()).toMatchObject({ synced_rows: 2, changed_customers: 1 });

    const after = await client.counted(page);
    expect(after).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    expect(tableRows(after.text, "cash_dividends")).toEqual([
      ["2024-05-10", "2024-06-01", "100", "300000.5", "15000.025", "285000.475"],
    ]);
    expect(rowIds(after.text, "share_credits")).toEqual([]);
    expect(after.text).toContain("<p>Chưa nhận thêm cổ phiếu nào.</p>");
    expect(await client.counted(page)).toMatchObject({ cache: "HIT", trips: 0 });
  });

  it("shows a new close after the sync that brings it: the page carries a valuation", async () => {
    const client = await cachedClient();
    const investor = investorBook();
    investor.book.price({ stock_code: "FPT", trade_date: "2024-06-27", close_price: "120000.5000" });
    await writeSource(client.dbs.source, investor.book);
    await client.sync();
    const page = `/c/${investor.slug}`;
    const before = await client.counted(page);
    expect(before).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    expect(figure(before.text, "market_value").value).toBe("12000050");
    expect(await client.counted(page)).toMatchObject({ cache: "HIT", trips: 0 });

    const more = new Book();
    more.price({ stock_code: "FPT", trade_date: "2024-06-28", close_price: "125000.2500", updated_at: "2025-06-01T00:00:00Z" });
    await writeSource(client.dbs.source, more);
    expect(await client.sync()).toMatchObject({ prices_changed: 1, changed_customers: 0 });

    const after = await client.counted(page);
    expect(after).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    expect(figure(after.text, "market_value").value).toBe("12500025");
    expect(after.text).toContain('<time datetime="2024-06-28">28/06/2024</time>');
  });
});
