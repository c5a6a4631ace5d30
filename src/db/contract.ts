/**
 * The contract columns of each synced table (docs/sync.md), defined once for both databases: the
 * source (source.ts) adds its tracking columns and its foreign keys, the target (schema/copies.ts) its
 * own key and its mirrored columns. Each table's are made by a function, since a column builder
 * belongs to the one table built from it (and `.references()` changes the builder it is called on).
 * `slug` is not here: the source requires it, the target lets it go null (schema/copies.ts).
 */
import { date, integer, numeric, text, uuid } from "drizzle-orm/pg-core";

/** Money: exact decimals to 10^-4, read as strings. */
export const money = (name: string) => numeric(name, { precision: 20, scale: 4, mode: "string" });

export const brokerColumns = () => ({ code: text("code").notNull(), name: text("name").notNull() });

export const staffColumns = () => ({ name: text("name").notNull(), email: text("email").notNull() });

export const customerColumns = () => ({
  name: text("name").notNull(),
  email: text("email").notNull(),
  phone: text("phone").notNull(),
  staffId: uuid("staff_id").notNull(),
});

export const accountColumns = () => ({
  customerId: uuid("customer_id").notNull(),
  brokerId: uuid("broker_id").notNull(),
  accountNo: text("account_no").notNull(),
});

/** What a holding and a trade both state: the account, the stock (ticker and ISIN), a number of shares. */
const positionColumns = () => ({
  accountId: uuid("account_id").notNull(),
  stockCode: text("stock_code").notNull(),
  isinCode: text("isin_code").notNull(),
  quantity: integer("quantity").notNull(),
});

export const holdingColumns = () => ({
  ...positionColumns(),
  avgCost: money("avg_cost").notNull(),
  totalCost: money("total_cost").notNull(),
});

export const transactionColumns = () => ({
  ...positionColumns(),
  tradeDate: date("trade_date", { mode: "string" }).notNull(),
  type: text("type", { enum: ["buy", "sell"] }).notNull(),
  price: money("price").notNull(),
  totalValue: money("total_value").notNull(),
  fee: money("fee").notNull(),
  personalTax: money("personal_tax").notNull(),
});

/**
 * What an account received from an issuer (docs/corporate-actions.md): a cash dividend (`gross_amount`
 * before the `tax` withheld; `quantity` the shares entitled) or a share credit (stock dividend,
 * bonus shares, split: `quantity` shares, no cash, no tax).
 */
export const corporateActionColumns = () => ({
  accountId: uuid("account_id").notNull(),
  stockCode: text("stock_code").notNull(),
  isinCode: text("isin_code").notNull(),
  type: text("type", { enum: ["cash_dividend", "share_dividend"] }).notNull(),
  exDate: date("ex_date", { mode: "string" }).notNull(),
  payDate: date("pay_date", { mode: "string" }).notNull(),
  quantity: integer("quantity").notNull(),
  grossAmount: money("gross_amount").notNull(),
  tax: money("tax").notNull(),
});

// ---------------------------------------------------------------------------------------------
// Closing prices (docs/valuation.md): a reference table, owned by no customer.

/** One stock's official close on one trading day, in đồng per share, not adjusted. */
export const stockPriceColumns = () => ({
  stockCode: text("stock_code").notNull(),
  tradeDate: date("trade_date", { mode: "string" }).notNull(),
  closePrice: money("close_price").notNull(),
});
