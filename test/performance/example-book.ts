/**
 * The worked example of docs/performance.md as a book: a buy, a cash dividend on its ex-date
 * paid weeks later, and a sell, over four market days, with VN-Index beside them. The API's
 * test (./example.test.ts) and the page's (test/page/performance.test.ts) read the same book.
 */
import { Book } from "../support/book";

export function exampleBook() {
  const book = new Book();
  const { customer, account } = book.simpleCustomer();
  for (const [trade_date, close_price] of [
    ["2024-05-31", "1250"],
    ["2024-06-03", "1260"],
    ["2024-06-04", "1255.5"],
    ["2024-06-05", "1270"],
    ["2024-06-06", "1262.25"],
  ] as const) {
    book.price({ stock_code: "VNINDEX", trade_date, close_price });
  }
  for (const [trade_date, close_price] of [
    ["2024-06-03", "101000"],
    ["2024-06-04", "102000"],
    ["2024-06-05", "103000"],
    ["2024-06-06", "104000"],
  ] as const) {
    book.price({ stock_code: "FPT", trade_date, close_price });
  }
  // 100 FPT at 100,000 plus 150 of fee: 10,000,150 put in.
  book.trade({ account_id: account.id, trade_date: "2024-06-03", type: "buy", quantity: 100, price: "100000", fee: "150" });
  // 2,000 a share, 5% withheld: 190,000 net, counted on its ex-date, paid on 2024-06-20.
  book.corporateAction({
    account_id: account.id,
    type: "cash_dividend",
    ex_date: "2024-06-04",
    pay_date: "2024-06-20",
    quantity: 100,
    gross_amount: "200000",
    tax: "10000",
  });
  // 40 at 103,000 less 0.1% tax: 4,115,880 taken out.
  book.trade({ account_id: account.id, trade_date: "2024-06-05", type: "sell", quantity: 40, price: "103000" });
  // What the back office says the account holds today, which the ledger explains.
  book.holding({ account_id: account.id, quantity: 60, avg_cost: "100001.5000", total_cost: "6000090.0000" });
  return { book, slug: customer.slug };
}
