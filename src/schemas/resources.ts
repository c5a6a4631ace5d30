/**
 * The resources the API returns (src/routes/). These schemas are the contract in three forms: the
 * TypeScript types the handlers and queries use, the OpenAPI components, and the checks the
 * tests run on every response. Objects are strict, so a field the contract does not name is
 * caught by those checks and `additionalProperties: false` in the document says so too.
 */
import { z } from "@hono/zod-openapi";
import type { Analytics as ComputedAnalytics } from "../domain/types";
import { exactNumber, money } from "./decimal";

// Ids come from the back office, so any uuid Postgres stores is accepted, not only RFC 4122 ones.
const id = z.guid().openapi({ example: "6f1c2a4e-8d3b-4c7a-9e21-5b0d7f3a9c10" });
const date = z.iso.date().openapi({ example: "2024-03-15" });
const month = z.string().regex(/^\d{4}-\d{2}$/);
// Integers name their width for generated clients: int32 for one row's value (the source's
// integer columns), int64 for counts and sums over many rows.
const shares = (example: number) => z.number().int().openapi({ example, format: "int32" });
const count = () => z.number().int().openapi({ format: "int64" });

export const Broker = z
  .strictObject({
    id,
    name: z.string().openapi({ example: "SSI Securities Corporation" }),
    code: z.string().openapi({ description: "Short broker code, also the `broker` filter value", example: "SSI" }),
  })
  .openapi("Broker");

export const Staff = z
  .strictObject({
    id,
    name: z.string().openapi({ example: "Nguyễn Thị Lan" }),
    email: z.string().openapi({ example: "lan@advisory.example" }),
  })
  .openapi("Staff", { description: "The staff member who looks after the customer" });

export const Account = z
  .strictObject({
    id,
    customer_id: id,
    broker_id: id,
    account_no: z.string().openapi({ example: "000C123456" }),
    broker: Broker,
  })
  .openapi("Account", { description: "A linked securities account" });

export const Customer = z
  .strictObject({
    id,
    slug: z.string().openapi({ description: "Unguessable identifier used in paths", example: "k3v7q2m5x4a6b2c7d3e4f5g6h7" }),
    name: z.string().openapi({ example: "Trần Văn Minh" }),
    email: z.string().openapi({ example: "minh@example.com" }),
    phone: z.string().openapi({ example: "+84901234567" }),
    staff_id: id,
    staff: Staff,
    accounts: z.array(Account).openapi({ description: "Ordered by broker code, then account number" }),
  })
  .openapi("Customer");

/** The account as embedded in a holding or a transaction. */
export const AccountRef = z.strictObject({ id, account_no: Account.shape.account_no, broker: Broker }).openapi("AccountRef");

// ---------------------------------------------------------------------------------------------
// Valuation at the latest closes (docs/valuation.md): declared once here, used by Holding and Stats.

const UNPRICED = "null when the stock has no close";

/** A holding's valuation fields: all four null together when its stock has no price. */
function holdingValuation() {
  return {
    market_price: money(121500.5)
      .nullable()
      .openapi({
        description: `The stock's latest official close in đồng per share, as the back office stored it (up to 4 decimals, unadjusted); ${UNPRICED}`,
      }),
    price_date: date.nullable().openapi({ description: `The trading day of \`market_price\`; ${UNPRICED}` }),
    market_value: money(182250750)
      .nullable()
      .openapi({ description: `\`quantity × market_price\`, rounded once to 2 places; ${UNPRICED}` }),
    unrealized_pnl: money(34575000)
      .nullable()
      .openapi({ description: `\`market_value − total_cost\`, exact then rounded once to 2 places; ${UNPRICED}` }),
  };
}

function valuationSchema() {
  return z
    .strictObject({
      as_of: date
        .nullable()
        .openapi({ description: "The latest `price_date` among the priced holdings; null when none is priced" }),
      cost: money(155175900).openapi({ description: "Sum of `total_cost` over all the customer's holdings" }),
      priced_cost: money(147675750).openapi({ description: "Sum of `total_cost` over the priced holdings" }),
      market_value: money(182250750).openapi({
        description: "Sum of `market_value` over the priced holdings (exact, rounded once)",
      }),
      unrealized_pnl: money(34575000).openapi({
        description: "`market_value − priced_cost` (exact, rounded once); 0 when no holding is priced",
      }),
      priced_holdings: count().openapi({ description: "Holdings whose stock has a close", example: 4 }),
      unpriced_holdings: count().openapi({
        description: "Holdings whose stock has no close: counted in `cost` only, never estimated",
        example: 1,
      }),
    })
    .openapi("Valuation", {
      description:
        "What the holdings are worth at each stock's latest close; no price is ever estimated, and each holding shows its own `price_date`",
    });
}

export const Holding = z
  .strictObject({
    id,
    stock_code: z.string().openapi({ example: "FPT" }),
    isin_code: z.string().openapi({ example: "VN000000FPT1" }),
    quantity: shares(1500),
    avg_cost: money(98450.5).openapi({ description: "Average cost per share" }),
    total_cost: money(147675750).openapi({ description: "Total cost of the position" }),
    ...holdingValuation(),
    account: AccountRef,
  })
  .openapi("Holding");

export const Transaction = z
  .strictObject({
    id,
    trade_date: date,
    stock_code: Holding.shape.stock_code,
    isin_code: Holding.shape.isin_code,
    type: z.enum(["buy", "sell"]),
    quantity: shares(500),
    price: money(101500),
    total_value: money(50750000),
    fee: money(76125),
    personal_tax: money(0),
    account: AccountRef,
  })
  .openapi("Transaction");

export const CorporateAction = z
  .strictObject({
    id,
    type: z.enum(["cash_dividend", "share_dividend"]).openapi({
      description:
        "`cash_dividend`: cash paid on the shares held; `share_dividend`: shares credited without payment (stock dividend, bonus shares, split)",
    }),
    stock_code: Holding.shape.stock_code,
    isin_code: Holding.shape.isin_code,
    ex_date: date.openapi({
      description: "Ex-rights date: a share credit counts from this day in the realized P&L (FIFO and average cost)",
    }),
    pay_date: date.openapi({ description: "Day the cash was paid or the shares were credited; not before `ex_date`" }),
    quantity: shares(1000).openapi({ description: "Shares credited; for a cash dividend, the shares entitled" }),
    gross_amount: money(2000000).openapi({ description: "Cash before tax, in đồng; 0 for a share credit" }),
    tax: money(100000).openapi({ description: "Tax withheld from the cash; 0 for a share credit" }),
    net_amount: money(1900000).openapi({ description: "`gross_amount − tax`: the cash the account received" }),
    account: AccountRef,
  })
  .openapi("CorporateAction", {
    description:
      "What one account received from an issuer: a cash dividend (in `stats.dividends`, never in trading P&L) or a share credit (spread over the holding's open lots)",
  });

export const Pagination = z
  .strictObject({
    page: z.number().int().min(1).openapi({ example: 1, format: "int32" }),
    per_page: z.number().int().min(1).openapi({ example: 10, format: "int32" }),
    total: z
      .number()
      .int()
      .min(0)
      .openapi({ description: "Records matching the filters, on every page", example: 42, format: "int64" }),
  })
  .openapi("Pagination");

export const Stats = z
  .strictObject({
    total_buy_value: money(1250000000),
    total_sell_value: money(980000000),
    total_buy_fee: money(1875000),
    total_sell_fee: money(1470000),
    total_tax: money(980000),
    realized_pnl: money(45230000),
    realized_pnl_average_cost: money(44870000).openapi({
      description:
        "Realized P&L by weighted average cost per account and stock (fees and taxes of buys in the cost; share credits add shares at no cost), the figure Vietnamese brokers print; `realized_pnl` matches lots first in, first out, so the two differ whenever a holding was bought at several prices",
    }),
    transaction_count: count().openapi({ example: 128 }),
    date_range: z
      .strictObject({ from: date.nullable(), to: date.nullable() })
      .openapi({ description: "First and last trade date; both null without trades" }),
    dividends: z
      .strictObject({
        count: count().openapi({ example: 4 }),
        gross: money(2500000),
        tax: money(125000),
        net: money(2375000),
      })
      .openapi({
        description:
          "Cash dividends received in the customer's accounts, whatever their pay date: income, never in `realized_pnl` or `total_fee_tax`; `net` = `gross` - `tax` (withheld)",
      }),
    total_return: money(47245000).openapi({
      description:
        "`realized_pnl_average_cost` + `valuation.unrealized_pnl` + `dividends.net`, read with the latest closes: the three exact parts added, then rounded once, so it may differ by 0.01 from the sum of the three rounded figures. Holdings without a market price add nothing to the unrealized part",
    }),
    valuation: valuationSchema(),
  })
  .openapi("Stats", {
    description: "Realized profit and loss statistics, and what the holdings are worth at the latest closes",
  });

export const Deal = z
  .strictObject({
    stock_code: Holding.shape.stock_code,
    sell_date: date,
    realized_pnl: money(12500000),
    holding_days: z.number().int().openapi({ example: 37, format: "int32" }),
    quantity_sold: shares(1000),
  })
  .openapi("Deal", { description: "One sell matched against earlier buys (FIFO)" });

export const AnalyticsSummary = z
  .strictObject({
    total_deals: count(),
    win_deals: count(),
    loss_deals: count(),
    win_rate: z.number().openapi({ description: "Fraction: 0.643 is 64.3 percent", example: 0.643 }),
    avg_win_pnl: money(8200000),
    avg_loss_pnl: money(-3100000).openapi({ description: "Negative for losses" }),
    profit_factor: exactNumber()
      .nullable()
      .openapi({ description: "Sum of wins / |sum of losses|; null with wins but no loss, 0 without wins", example: 2.4 }),
    avg_holding_days_win: z.number().openapi({ example: 21.5 }),
    avg_holding_days_loss: z.number().openapi({ example: 34.25 }),
    total_realized_pnl: money(45230000),
    total_fee_tax: money(4325000),
    monthly_trade_counts: z
      .record(month, count())
      .openapi({ description: "Trades per YYYY-MM month, ascending", example: { "2024-01": 6, "2024-02": 9 } }),
    monthly_realized_pnl: z.record(month, exactNumber()).openapi({
      description:
        "Realized P&L per YYYY-MM month of the sell, ascending: the exact sum of that month's deal pnl, rounded to 2 places; months without a deal are absent",
      example: { "2024-01": 1250000, "2024-02": -310000.5 },
    }),
    unmatched_sell_quantity: count().openapi({
      description: "Sold shares with no earlier buy to match; left out of P&L",
      example: 0,
    }),
  })
  .openapi("AnalyticsSummary");

export const Analytics = z
  .strictObject({
    summary: AnalyticsSummary,
    top_wins: z.array(Deal).openapi({ description: "Up to 5 wins, largest first" }),
    top_losses: z.array(Deal).openapi({ description: "Up to 5 losses, largest first" }),
  })
  .openapi("Analytics", { description: "Trading-style analytics" }) satisfies z.ZodType<ComputedAnalytics>;

export type Broker = z.infer<typeof Broker>;
export type Customer = z.infer<typeof Customer>;
export type Holding = z.infer<typeof Holding>;
export type Transaction = z.infer<typeof Transaction>;
export type CorporateAction = z.infer<typeof CorporateAction>;
export type Stats = z.infer<typeof Stats>;
export type Analytics = z.infer<typeof Analytics>;
