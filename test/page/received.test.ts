/**
 * The page's section for what the accounts received: the latest cash dividends and share credits,
 * each the first page of GET /api/corporate-actions/:slug for its type, apart from the trade
 * history. A book worked by hand: a customer with a dividend at each broker (amounts with 4
 * decimals, in <data value> with all of them, shown in whole đồng), a share credit, and a soft-deleted action of each kind
 * (never shown or counted); one with twelve dividends and no credit (the ten newest, and how many
 * in all); one who received nothing. Both languages, the 400 page, one round trip.
 */
import { describe, expect, it } from "vitest";
import { apiDatabases } from "../support/api";
import { Book, writeTarget } from "../support/book";
import { getJson } from "../support/worker";
import { getPage, rowIds, section, tableRows, tableTexts } from "./html";

const NBSP = "\u00a0";

function receivedBook() {
  const book = new Book();
  const { ssi, vnd, staff, customer, ssiMain, vndMain } = book.twoBrokerCustomer();
  const hpg = { stock_code: "HPG", isin_code: "VN000000HPG4" };

  // 2,000.005 đồng a share on 100 FPT, 5% withheld: net 190,000.475.
  const fptCash = book.corporateAction({
    account_id: ssiMain.id,
    type: "cash_dividend",
    ex_date: "2024-05-10",
    pay_date: "2024-06-01",
    quantity: 100,
    gross_amount: "200000.5000",
    tax: "10000.0250",
  });
  // 500.0017 đồng a share on 333 HPG: net 166,500.5555 - 8,325.0278 = 158,175.5277.
  const hpgCash = book.hpgDividend({ account_id: vndMain.id });
  const bonus = book.corporateAction({
    account_id: ssiMain.id,
    type: "share_dividend",
    ex_date: "2024-02-20",
    pay_date: "2024-03-05",
    quantity: 20,
  });
  const deleted = [
    book.corporateAction({
      account_id: ssiMain.id,
      type: "cash_dividend",
      ex_date: "2024-08-01",
      quantity: 100,
      gross_amount: "999",
      deleted_at: "2024-08-02T00:00:00Z",
    }),
    book.corporateAction({
      account_id: vndMain.id,
      ...hpg,
      type: "share_dividend",
      ex_date: "2024-09-01",
      quantity: 7,
      deleted_at: "2024-09-02T00:00:00Z",
    }),
  ];

  // Twelve yearly dividends of 1,000 đồng a share more each year, 2013 to 2024, and no credit.
  const many = book.customer({ staff_id: staff.id, name: "Lê Thị Hoa" });
  const manyAccount = book.account({ customer_id: many.id, broker_id: ssi.id, account_no: "0009" });
  const yearly = Array.from({ length: 12 }, (_, i) =>
    book.corporateAction({
      account_id: manyAccount.id,
      type: "cash_dividend",
      ex_date: `${2013 + i}-07-01`,
      pay_date: `${2013 + i}-07-15`,
      quantity: 10,
      gross_amount: String(10000 * (i + 1)),
      tax: String(500 * (i + 1)),
    }),
  );

  const nobody = book.customer({ staff_id: staff.id, name: "Phạm Văn An" });
  book.account({ customer_id: nobody.id, broker_id: vnd.id, account_no: "0005" });
  return { book, customer, many, nobody, actions: { fptCash, hpgCash, bonus }, deleted, yearly };
}

async function withReceived() {
  const dbs = await apiDatabases();
  const fixture = receivedBook();
  await writeTarget(dbs.target, fixture.book);
  return { dbs, env: dbs.env, ...fixture };
}

describe("GET /c/:slug, what the accounts received", () => {
  it("lists each cash dividend and share credit with the API's exact figures, in both languages, apart from the history", async () => {
    const { env, customer, actions, deleted } = await withReceived();
    const vi = (await getPage(env, `/c/${customer.slug}`)).html;
    const order = ['id="top-deals"', 'id="received"', 'id="history"'].map((marker) => vi.indexOf(marker));
    expect(order.every((p, i) => p > (order[i - 1] ?? -1))).toBe(true);
    const received = section(vi, "received");
    expect(received).toContain('<h2 id="received">Cổ tức và cổ phiếu đã nhận</h2>');
    expect(received).toContain("<caption>Cổ tức tiền mặt</caption>");
    expect(received).toContain("<caption>Cổ phiếu nhận thêm (cổ tức bằng cổ phiếu, cổ phiếu thưởng, chia tách)</caption>");

    // Newest ex_date first; the deleted ones nowhere, and no line of "more" when all are shown.
    expect(rowIds(vi, "cash_dividends")).toEqual([actions.hpgCash.id, actions.fptCash.id]);
    expect(rowIds(vi, "share_credits")).toEqual([actions.bonus.id]);
    for (const { id } of deleted) expect(vi).not.toContain(id);
    expect(received).not.toContain("data-total");
    expect(tableRows(vi, "cash_dividends")).toEqual([
      ["2024-06-20", "2024-07-10", "333", "166500.5555", "8325.0278", "158175.5277"],
      ["2024-05-10", "2024-06-01", "100", "200000.5", "10000.025", "190000.475"],
    ]);
    expect(tableTexts(vi, "cash_dividends")).toEqual([
      ["20/06/2024", "10/07/2024", "HPG", "VND · 0001", "333", `166.501${NBSP}₫`, `8.325${NBSP}₫`, `158.176${NBSP}₫`],
      ["10/05/2024", "01/06/2024", "FPT", "SSI · 0002", "100", `200.001${NBSP}₫`, `10.000${NBSP}₫`, `190.000${NBSP}₫`],
    ]);
    expect(tableRows(vi, "share_credits")).toEqual([["2024-02-20", "20"]]);
    expect(tableTexts(vi, "share_credits")).toEqual([["20/02/2024", "FPT", "SSI · 0002", "20"]]);
    // Not mixed into the trade history.
    expect(section(vi, "history")).toContain("Không có giao dịch nào khớp bộ lọc.");

    const en = (await getPage(env, `/c/${customer.slug}?lang=en`)).html;
    const english = section(en, "received");
    expect(english).toContain('<h2 id="received">What the accounts received</h2>');
    expect(english).toContain("<caption>Cash dividends</caption>");
    expect(english).toContain('<th scope="col">Ex-date</th><th scope="col">Pay date</th>');
    expect(tableTexts(en, "cash_dividends")).toEqual([
      ["20 Jun 2024", "10 Jul 2024", "HPG", "VND · 0001", "333", "₫166,501", "₫8,325", "₫158,176"],
      ["10 May 2024", "1 Jun 2024", "FPT", "SSI · 0002", "100", "₫200,001", "₫10,000", "₫190,000"],
    ]);
    expect(tableTexts(en, "share_credits")).toEqual([["20 Feb 2024", "FPT", "SSI · 0002", "20"]]);
  });

  it("shows the same as the API's list for each type, digit for digit", async () => {
    const { env, customer, many } = await withReceived();
    for (const slug of [customer.slug, many.slug]) {
      const html = (await getPage(env, `/c/${slug}`)).html;
      for (const [type, table] of [
        ["cash_dividend", "cash_dividends"],
        ["share_dividend", "share_credits"],
      ] as const) {
        const api = await getJson(env, `/api/corporate-actions/${slug}?type=${type}`);
        const data = api.body.data as Array<{ id: string }>;
        expect({ slug, type, ids: rowIds(html, table) }).toEqual({ slug, type, ids: data.map((a) => a.id) });
        // The exact text of each figure as the API wrote it, read from the JSON text itself.
        const written = (field: string) => [...api.text.matchAll(new RegExp(`"${field}":([-0-9.]+)`, "g"))].map((m) => m[1]);
        const rows = tableRows(html, table);
        if (type === "cash_dividend") {
          expect(rows.map((r) => r[3])).toEqual(written("gross_amount"));
          expect(rows.map((r) => r[4])).toEqual(written("tax"));
          expect(rows.map((r) => r[5])).toEqual(written("net_amount"));
        }
        expect(rows.map((r) => r[type === "cash_dividend" ? 2 : 1])).toEqual(written("quantity"));
      }
    }
  });

  it("shows the ten most recent and how many in all, and says when one kind is missing", async () => {
    const { env, many, yearly } = await withReceived();
    const vi = (await getPage(env, `/c/${many.slug}`)).html;
    const newest = [...yearly].reverse().slice(0, 10);
    expect(rowIds(vi, "cash_dividends")).toEqual(newest.map((a) => a.id));
    expect(tableRows(vi, "cash_dividends")[0]).toEqual(["2024-07-01", "2024-07-15", "10", "120000", "6000", "114000"]);
    expect(tableRows(vi, "cash_dividends")[9]).toEqual(["2015-07-01", "2015-07-15", "10", "30000", "1500", "28500"]);
    const received = section(vi, "received");
    expect(received).toContain('<p data-total="12">10 lần gần nhất trên tổng số 12 lần.</p>');
    expect(received).toContain("<h3>Cổ phiếu nhận thêm (cổ tức bằng cổ phiếu, cổ phiếu thưởng, chia tách)</h3>");
    expect(received).toContain("<p>Chưa nhận thêm cổ phiếu nào.</p>");
    expect(received).not.toContain('data-table="share_credits"');

    const en = section((await getPage(env, `/c/${many.slug}?lang=en`)).html, "received");
    expect(en).toContain('<p data-total="12">The 10 most recent of 12.</p>');
    expect(en).toContain("<p>No shares credited yet.</p>");
  });

  it("says so when the accounts received nothing", async () => {
    const { env, nobody } = await withReceived();
    const vi = await getPage(env, `/c/${nobody.slug}`);
    expect(vi.status).toBe(200);
    expect(section(vi.html, "received")).toBe(
      '<section aria-labelledby="received"><h2 id="received">Cổ tức và cổ phiếu đã nhận</h2><p>Các tài khoản chưa nhận cổ tức hay cổ phiếu nào.</p></section>',
    );
    const en = (await getPage(env, `/c/${nobody.slug}?lang=en`)).html;
    expect(section(en, "received")).toBe(
      '<section aria-labelledby="received"><h2 id="received">What the accounts received</h2><p>The accounts have received no dividend or shares yet.</p></section>',
    );
  });

  it("is on the 400 page of a wrong filter too, and the page still costs one round trip", async () => {
    const { dbs, env, customer, actions } = await withReceived();
    const invalid = await getPage(env, `/c/${customer.slug}?type=hold`);
    expect(invalid.status).toBe(400);
    expect(rowIds(invalid.html, "cash_dividends")).toEqual([actions.hpgCash.id, actions.fptCash.id]);
    expect(rowIds(invalid.html, "share_credits")).toEqual([actions.bonus.id]);
    for (const path of [`/c/${customer.slug}`, `/c/${customer.slug}?type=hold`]) {
      expect({ path, trips: await dbs.targetTrips(() => getPage(env, path)) }).toEqual({ path, trips: 1 });
    }
  });
});
