/**
 * GET /api/performance/:slug, what moved the portfolio (docs/performance.md, "Per stock"; the
 * drawdown has ./performance-drawdown.test.ts): one case per rule, each with a book small enough
 * to work out by hand. Every expected figure below is worked out by hand (the comments show the
 * arithmetic); the reference (test/performance/reference-positions.ts) must give it too, and so must
 * the endpoint, over a real sync.
 */
import { describe, it } from "vitest";
import { Book } from "../support/book";
import { expectPerformance, ledger, syncedBook } from "../performance/ledger";
import { expectedPerformance, expectedPosition, NO_DRAWDOWN } from "./performance-expected";

const HPG = { stock_code: "HPG", isin_code: "VN000000HPG4" };
const VNM = { stock_code: "VNM", isin_code: "VN000000VNM8" };

describe("GET /api/performance/:slug: positions and drawdown", () => {
  it("lists a stock sold out inside the range, and a cash dividend on a code no longer held", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000"); // FPT: In 1,000,000
    l.buy("2024-03-01", 10, "20000", HPG); // In 200,000
    l.sell("2024-03-04", 10, "21000", HPG); // Out 210,000: HPG sold out
    l.book.corporateAction({
      account_id: l.account.id,
      ...HPG,
      type: "cash_dividend",
      ex_date: "2024-03-05",
      pay_date: "2024-03-20",
      quantity: 10,
      gross_amount: "5000",
      tax: "250",
    }); // Out 4,750 on 03-05, when no HPG share is held
    l.closes(
      [
        ["2024-03-01", "10000"],
        ["2024-03-04", "11000"],
        ["2024-03-05", "12000"],
      ],
      "FPT",
    );
    l.closes(
      [
        ["2024-03-01", "20000"],
        ["2024-03-04", "21000"],
      ],
      "HPG",
    );
    l.closes([
      ["2024-03-01", "1000"],
      ["2024-03-04", "1010"],
      ["2024-03-05", "1020"],
    ]);
    const dbs = await syncedBook(l.book);
    // MV: 1,200,000 (03-01), 1,100,000 (03-04), 1,200,000 (03-05).
    // r: 1,200,000 / 1,200,000 - 1 = 0; 1,310,000 / 1,200,000 - 1; 1,204,750 / 1,100,000 - 1.
    // twr = (1,310,000 × 1,204,750) / (1,200,000 × 1,100,000) - 1 = 0.195623...
    // mwr: -1,200,000 at t = 0, +210,000 at 3, +1,204,750 at T = 4: y = 0.186606...
    // FPT: r_k 0, 0.1, 1/11: twr 0.2, pnl 1,200,000 - 1,000,000 = 200,000, weight 1.
    // HPG: r_k 0, 210,000 / 200,000 - 1 = 0.05, then 4,750 / (0 + 0): 0. twr 0.05;
    // pnl = 0 - (200,000 - 210,000 - 4,750) = 14,750. The parts add up: 214,750 = pnl.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      {},
      {
        ...expectedPerformance({
          start_date: "2024-02-29",
          end_date: "2024-03-05",
          as_of: "2024-03-05",
          end_value: 1200000,
          invested: 1200000,
          withdrawn: 210000,
          dividends: 4750,
          net_invested: 985250,
          pnl: 214750,
          twr: 0.1956,
          mwr: { rate: 0.1866, status: "ok" },
          benchmark: { code: "VNINDEX", start_close: 1000, end_close: 1020, return: 0.02 },
          dividends_receivable: 4750,
          holdings_mismatch: 1,
          points: [
            { date: "2024-02-29", value: 0, net_invested: 0, pnl: 0, twr: 0, benchmark: 0 },
            { date: "2024-03-01", value: 1200000, net_invested: 1200000, pnl: 0, twr: 0, benchmark: 0 },
            { date: "2024-03-04", value: 1100000, net_invested: 990000, pnl: 110000, twr: 0.0917, benchmark: 0.01 },
            { date: "2024-03-05", value: 1200000, net_invested: 985250, pnl: 214750, twr: 0.1956, benchmark: 0.02 },
          ],
        }),
        drawdown: NO_DRAWDOWN,
        positions: [
          expectedPosition("FPT", { shares: 100, end_value: 1200000, invested: 1000000, pnl: 200000, twr: 0.2, weight: 1 }),
          expectedPosition("HPG", { invested: 200000, withdrawn: 210000, dividends: 4750, pnl: 14750, twr: 0.05 }),
        ],
      },
    );
    // Over 1d (s = 03-04): HPG holds nothing at s or e, but its dividend is an event of the range.
    // FPT: 1,200,000 / 1,100,000 - 1 = 1/11.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { range: "1d" },
      {
        start_date: "2024-03-04",
        pnl: 104750,
        drawdown: NO_DRAWDOWN,
        positions: [
          expectedPosition("FPT", { shares: 100, start_value: 1100000, end_value: 1200000, pnl: 100000, twr: 0.0909, weight: 1 }),
          expectedPosition("HPG", { dividends: 4750, pnl: 4750 }),
        ],
      },
      { partial: true },
    );
  });

  it("values an unpriced position at its cost in its end value and weight, and orders ties by pnl, then code", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000"); // FPT: In 1,000,000
    l.buy("2024-03-01", 50, "21000", HPG); // In 1,050,000
    l.buy("2024-03-01", 10, "50000", VNM); // In 500,000, never a close
    l.closes(
      [
        ["2024-03-01", "10000"],
        ["2024-03-04", "10500"],
      ],
      "FPT",
    );
    l.closes(
      [
        ["2024-03-01", "21000"],
        ["2024-03-04", "21000"],
      ],
      "HPG",
    );
    l.closes([
      ["2024-03-01", "1000"],
      ["2024-03-04", "1000"],
    ]);
    const dbs = await syncedBook(l.book);
    // MV(e) = 1,050,000 + 1,050,000 + 500,000 (VNM at C) = 2,600,000. FPT and HPG end at
    // 1,050,000 each: FPT's pnl 50,000 puts it before HPG's 0. Weights: 1,050,000 / 2,600,000
    // = 0.403846... twice and 500,000 / 2,600,000 = 0.192307...: exactly 1 in all.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      {},
      {
        end_value: 2600000,
        unpriced_value: 500000,
        unpriced_positions: 1,
        drawdown: NO_DRAWDOWN,
        positions: [
          expectedPosition("FPT", { shares: 100, end_value: 1050000, invested: 1000000, pnl: 50000, twr: 0.05, weight: 0.4038 }),
          expectedPosition("HPG", { shares: 50, end_value: 1050000, invested: 1050000, weight: 0.4038 }),
          expectedPosition("VNM", { shares: 10, end_value: 500000, invested: 500000, weight: 0.1923 }),
        ],
      },
      { partial: true },
    );
  });

  it("lists the codes held at an empty range's date, and nothing before the first point or with no point", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000");
    l.buy("2024-03-01", 50, "21000", VNM);
    l.buy("2024-03-01", 50, "20000", HPG);
    l.sell("2024-03-04", 50, "20000", HPG); // no HPG share at e
    l.close("2024-03-01", "10500", "FPT");
    l.close("2024-03-01", "21000", "VNM");
    l.close("2024-03-01", "20000", "HPG");
    l.close("2024-03-01", "1000");
    l.close("2024-03-04", "1010");
    const nobody = ledger(l.book); // a customer with no ledger row: no point
    const dbs = await syncedBook(l.book);
    // e = as_of = 03-04: FPT and VNM at 1,050,000 each, pnl 0 both: by code. Weights 1/2.
    const held = (stock_code: string) =>
      expectedPosition(stock_code, {
        shares: stock_code === "FPT" ? 100 : 50,
        start_value: 1050000,
        end_value: 1050000,
        weight: 0.5,
      });
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { from: "2024-04-01" },
      {
        start_date: "2024-03-04",
        end_date: "2024-03-04",
        points: [],
        drawdown: NO_DRAWDOWN,
        positions: [held("FPT"), held("VNM")],
      },
      { partial: true },
    );
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { range: "1w", to: "2024-02-29" },
      { end_date: "2024-02-29", drawdown: NO_DRAWDOWN, positions: [] },
      { partial: true },
    );
    await expectPerformance(
      dbs,
      l.book,
      nobody.customer,
      {},
      { as_of: null, drawdown: NO_DRAWDOWN, positions: [] },
      { partial: true },
    );
  });

  it("keeps to one broker's ledger with `broker`: its codes, its values, its weights", async () => {
    const book = new Book();
    const { customer, ssiMain, vndMain } = book.twoBrokerCustomer();
    const buy = (account_id: string, trade_date: string, quantity: number, price: string, stock = {}) =>
      book.trade({ account_id, trade_date, type: "buy", quantity, price, fee: "0", personal_tax: "0", ...stock });
    buy(ssiMain.id, "2024-03-01", 100, "10000"); // FPT, no close until 03-05: valued at C
    buy(vndMain.id, "2024-03-04", 100, "20000");
    buy(vndMain.id, "2024-03-04", 10, "10000", HPG);
    book.price({ stock_code: "FPT", trade_date: "2024-03-05", close_price: "21000" });
    book.price({ stock_code: "HPG", trade_date: "2024-03-04", close_price: "10000" });
    book.price({ stock_code: "HPG", trade_date: "2024-03-05", close_price: "11000" });
    for (const date of ["2024-03-01", "2024-03-04", "2024-03-05"])
      book.price({ stock_code: "VNINDEX", trade_date: date, close_price: "1000" });
    const dbs = await syncedBook(book);
    // All: FPT r_k 1,000,000 / 1,000,000, 3,000,000 / (1,000,000 + 2,000,000), 4,200,000 /
    // 3,000,000: twr 0.4. HPG: 1, then 1.1. MV(e) 4,310,000: 0.974477... and 0.025522...
    const hpg = (weight: number) =>
      expectedPosition("HPG", { shares: 10, end_value: 110000, invested: 100000, pnl: 10000, twr: 0.1, weight });
    await expectPerformance(
      dbs,
      book,
      customer,
      {},
      {
        drawdown: NO_DRAWDOWN,
        positions: [
          expectedPosition("FPT", { shares: 200, end_value: 4200000, invested: 3000000, pnl: 1200000, twr: 0.4, weight: 0.9745 }),
          hpg(0.0255),
        ],
      },
      { partial: true },
    );
    // VND: 2,100,000 / 2,000,000 for FPT; MV(e) 2,210,000: 0.950226... and 0.049773...
    await expectPerformance(
      dbs,
      book,
      customer,
      { broker: "vnd" },
      {
        start_date: "2024-03-03",
        positions: [
          expectedPosition("FPT", { shares: 100, end_value: 2100000, invested: 2000000, pnl: 100000, twr: 0.05, weight: 0.9502 }),
          hpg(0.0498),
        ],
      },
      { partial: true },
    );
    // SSI: FPT at C until 03-05, then 2,100,000 / 1,000,000.
    await expectPerformance(
      dbs,
      book,
      customer,
      { broker: "SSI" },
      {
        positions: [
          expectedPosition("FPT", { shares: 100, end_value: 2100000, invested: 1000000, pnl: 1100000, twr: 1.1, weight: 1 }),
        ],
      },
      { partial: true },
    );
  });
});
