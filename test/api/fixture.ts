/**
 * The book the API suites read, and what the API must answer for it, written out literally.
 *
 * An investor with three accounts (two at SSI, one at VND), three holdings, and six trades over
 * three months, two pairs of them on the same day; a second customer at the same broker whose
 * data must never show up; and a broker nobody uses. Trade ids are drawn fresh and then handed
 * out in ascending order, so the id tie-break on equal dates is known: t2 before t1, t6 before t5.
 */
import { apiDatabases } from "../support/api";
import { Book, writeTarget } from "../support/book";

export function investorFixture() {
  const book = new Book();
  const ssi = book.broker({ code: "SSI", name: "SSI Securities Corporation" });
  const vnd = book.broker({ code: "VND", name: "VNDIRECT Securities Corporation" });
  const hsc = book.broker({ code: "HSC", name: "Ho Chi Minh City Securities Corporation" });
  const staff = book.staffMember({ name: "Nguyễn Thị Lan", email: "lan@advisory.test" });
  const customer = book.customer({
    staff_id: staff.id,
    name: "Trần Văn Minh",
    email: "minh@example.test",
    phone: "+84901234567",
  });
  // Created out of order so that only the query's ordering (broker code, then number) sorts them.
  const vndMain = book.account({ customer_id: customer.id, broker_id: vnd.id, account_no: "0001" });
  const ssiMain = book.account({ customer_id: customer.id, broker_id: ssi.id, account_no: "0002" });
  const ssiMargin = book.account({ customer_id: customer.id, broker_id: ssi.id, account_no: "0001" });

  const vnm = book.vnmHolding(vndMain.id);
  const fptAtVnd = book.holding({
    account_id: vndMain.id,
    stock_code: "FPT",
    isin_code: "VN000000FPT1",
    quantity: 100,
    avg_cost: "100150.0000",
    total_cost: "10015000.0000",
  });
  const fptAtSsi = book.holding({
    account_id: ssiMain.id,
    stock_code: "FPT",
    isin_code: "VN000000FPT1",
    quantity: 200,
    avg_cost: "98765.4321",
    total_cost: "19753086.4200",
  });

  const ids = Array.from({ length: 6 }, () => crypto.randomUUID()).sort();
  const t1 = book.trade({
    id: ids[0],
    account_id: ssiMain.id,
    trade_date: "2024-01-05",
    type: "buy",
    quantity: 100,
    price: "100000",
    fee: "150",
  });
  const t2 = book.trade({
    id: ids[1],
    account_id: vndMain.id,
    trade_date: "2024-01-05",
    stock_code: "HPG",
    isin_code: "VN000000HPG4",
    type: "buy",
    quantity: 200,
    price: "25000",
    fee: "75",
  });
  const t3 = book.trade({
    id: ids[2],
    account_id: ssiMain.id,
    trade_date: "2024-02-10",
    type: "sell",
    quantity: 100,
    price: "110000",
    fee: "165",
  });
  const t4 = book.trade({
    id: ids[3],
    account_id: vndMain.id,
    trade_date: "2024-02-20",
    stock_code: "VNM",
    isin_code: "VN000000VNM8",
    type: "buy",
    quantity: 50,
    price: "70000",
    fee: "52.5",
  });
  const t5 = book.trade({
    id: ids[4],
    account_id: vndMain.id,
    trade_date: "2024-03-01",
    stock_code: "HPG",
    isin_code: "VN000000HPG4",
    type: "sell",
    quantity: 200,
    price: "24000",
    fee: "72",
  });
  const t6 = book.trade({
    id: ids[5],
    account_id: ssiMargin.id,
    trade_date: "2024-03-01",
    type: "buy",
    quantity: 10,
    price: "105000",
    fee: "15.75",
  });

  const other = book.customer({ staff_id: staff.id, name: "Lê Thị Hoa", email: "hoa@example.test", phone: "+84907654321" });
  const otherAccount = book.account({ customer_id: other.id, broker_id: ssi.id, account_no: "0009" });
  book.holding({ account_id: otherAccount.id, quantity: 5 });
  const otherTrade = book.trade({
    account_id: otherAccount.id,
    trade_date: "2024-02-15",
    type: "buy",
    quantity: 5,
    price: "101000",
  });

  // Closes: FPT's latest live one values both FPT holdings (a later close was withdrawn); HPG,
  // sold out, has a close nobody is valued at; VNM has none, so its holding is unpriced.
  book.price({ stock_code: "FPT", trade_date: "2024-06-27", close_price: "119000.0000" });
  book.price({ stock_code: "FPT", trade_date: "2024-06-28", close_price: "120500.5555" });
  book.price({ stock_code: "FPT", trade_date: "2024-07-01", close_price: "999999.0000", deleted_at: "2024-07-02T00:00:00Z" });
  book.price({ stock_code: "HPG", trade_date: "2024-06-28", close_price: "26000.0000" });

  const brokerJson = (b: typeof ssi) => ({ id: b.id, name: b.name, code: b.code });
  const accountRef = (a: typeof ssiMain, b: typeof ssi) => ({ id: a.id, account_no: a.account_no, broker: brokerJson(b) });
  const fpt = { stock_code: "FPT", isin_code: "VN000000FPT1" };
  const hpg = { stock_code: "HPG", isin_code: "VN000000HPG4" };

  /** The API's view of each trade, newest first. */
  const trades = {
    t6: {
      id: t6.id,
      trade_date: "2024-03-01",
      ...fpt,
      type: "buy",
      quantity: 10,
      price: 105000,
      total_value: 1050000,
      fee: 15.75,
      personal_tax: 0,
      account: accountRef(ssiMargin, ssi),
    },
    t5: {
      id: t5.id,
      trade_date: "2024-03-01",
      ...hpg,
      type: "sell",
      quantity: 200,
      price: 24000,
      total_value: 4800000,
      fee: 72,
      personal_tax: 4800,
      account: accountRef(vndMain, vnd),
    },
    t4: {
      id: t4.id,
      trade_date: "2024-02-20",
      stock_code: "VNM",
      isin_code: "VN000000VNM8",
      type: "buy",
      quantity: 50,
      price: 70000,
      total_value: 3500000,
      fee: 52.5,
      personal_tax: 0,
      account: accountRef(vndMain, vnd),
    },
    t3: {
      id: t3.id,
      trade_date: "2024-02-10",
      ...fpt,
      type: "sell",
      quantity: 100,
      price: 110000,
      total_value: 11000000,
      fee: 165,
      personal_tax: 11000,
      account: accountRef(ssiMain, ssi),
    },
    t2: {
      id: t2.id,
      trade_date: "2024-01-05",
      ...hpg,
      type: "buy",
      quantity: 200,
      price: 25000,
      total_value: 5000000,
      fee: 75,
      personal_tax: 0,
      account: accountRef(vndMain, vnd),
    },
    t1: {
      id: t1.id,
      trade_date: "2024-01-05",
      ...fpt,
      type: "buy",
      quantity: 100,
      price: 100000,
      total_value: 10000000,
      fee: 150,
      personal_tax: 0,
      account: accountRef(ssiMain, ssi),
    },
  };

  const expected = {
    customer: {
      id: customer.id,
      slug: customer.slug,
      name: "Trần Văn Minh",
      email: "minh@example.test",
      phone: "+84901234567",
      staff_id: staff.id,
      staff: { id: staff.id, name: "Nguyễn Thị Lan", email: "lan@advisory.test" },
      accounts: [
        { id: ssiMargin.id, customer_id: customer.id, broker_id: ssi.id, account_no: "0001", broker: brokerJson(ssi) },
        { id: ssiMain.id, customer_id: customer.id, broker_id: ssi.id, account_no: "0002", broker: brokerJson(ssi) },
        { id: vndMain.id, customer_id: customer.id, broker_id: vnd.id, account_no: "0001", broker: brokerJson(vnd) },
      ],
    },
    portfolio: [
      {
        id: fptAtSsi.id,
        ...fpt,
        quantity: 200,
        avg_cost: 98765.4321,
        total_cost: 19753086.42,
        // 200 × 120,500.5555 = 24,100,111.10; minus the cost.
        market_price: 120500.5555,
        price_date: "2024-06-28",
        market_value: 24100111.1,
        unrealized_pnl: 4347024.68,
        account: accountRef(ssiMain, ssi),
      },
      {
        id: fptAtVnd.id,
        ...fpt,
        quantity: 100,
        avg_cost: 100150,
        total_cost: 10015000,
        market_price: 120500.5555,
        price_date: "2024-06-28",
        market_value: 12050055.55,
        unrealized_pnl: 2035055.55,
        account: accountRef(vndMain, vnd),
      },
      {
        id: vnm.id,
        stock_code: "VNM",
        isin_code: "VN000000VNM8",
        quantity: 50,
        avg_cost: 70000.5,
        total_cost: 3500025,
        market_price: null,
        price_date: null,
        market_value: null,
        unrealized_pnl: null,
        account: accountRef(vndMain, vnd),
      },
    ],
    trades,
    /** Worked by hand: FPT bought at 100,001.50 a share sold 36 days later; HPG at a loss after 56. */
    stats: {
      total_buy_value: 19550000,
      total_sell_value: 15800000,
      total_buy_fee: 293.25,
      total_sell_fee: 237,
      total_tax: 15800,
      realized_pnl: 783738,
      // Each holding sold what one buy bought, so its average cost is that buy's: as FIFO.
      realized_pnl_average_cost: 783738,
      transaction_count: 6,
      date_range: { from: "2024-01-05", to: "2024-03-01" },
      dividends: { count: 0, gross: 0, tax: 0, net: 0 },
      // 783,738 realized by average cost, no dividends, plus the 6,382,080.23 unrealized.
      total_return: 7165818.23,
      // 36,150,166.65 worth against the 29,768,086.42 the two FPT holdings cost; VNM unpriced.
      valuation: {
        as_of: "2024-06-28",
        cost: 33268111.42,
        priced_cost: 29768086.42,
        market_value: 36150166.65,
        unrealized_pnl: 6382080.23,
        priced_holdings: 2,
        unpriced_holdings: 1,
      },
    },
    analytics: {
      summary: {
        total_deals: 2,
        win_deals: 1,
        loss_deals: 1,
        win_rate: 0.5,
        avg_win_pnl: 988685,
        avg_loss_pnl: -204947,
        profit_factor: 4.8241,
        avg_holding_days_win: 36,
        avg_holding_days_loss: 56,
        total_realized_pnl: 783738,
        total_fee_tax: 16330.25,
        monthly_trade_counts: { "2024-01": 2, "2024-02": 2, "2024-03": 2 },
        monthly_realized_pnl: { "2024-02": 988685, "2024-03": -204947 },
        unmatched_sell_quantity: 0,
      },
      top_wins: [{ stock_code: "FPT", sell_date: "2024-02-10", realized_pnl: 988685, holding_days: 36, quantity_sold: 100 }],
      top_losses: [{ stock_code: "HPG", sell_date: "2024-03-01", realized_pnl: -204947, holding_days: 56, quantity_sold: 200 }],
    },
    brokers: [brokerJson(hsc), brokerJson(ssi), brokerJson(vnd)],
  };

  return { book, customer, other, otherAccount, otherTrade, accounts: { ssiMain, ssiMargin, vndMain }, expected };
}

/** Fresh databases holding the investor fixture, as a finished sync leaves them. */
export async function withInvestor() {
  const dbs = await apiDatabases();
  const fixture = investorFixture();
  await writeTarget(dbs.target, fixture.book);
  return { dbs, env: dbs.env, ...fixture };
}

/** Strings that cannot be slugs: a character outside the alphabet, a space, a dot, too long, not ASCII. */
export const MALFORMED_SLUGS = ["bad!slug", "bad slug", "bad.slug", "a".repeat(65), "âbc"];

// Plain data that the pure suites take too (test/api/dates.test.ts runs in plain Node).
export { BAD_DATES, EDGE_DATES } from "./calendar-dates";
