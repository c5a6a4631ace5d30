/**
 * What the read queries return: JSON built in SQL (shapes.ts) in the shape of the API's
 * resources. The response schemas (src/schemas/resources.ts) are checked against these types,
 * so the SQL and the contract cannot drift apart. Money is a Decimal (src/domain/decimal.ts):
 * read from the JSON text without a trip through a double (exact-json.ts), written with every
 * digit.
 */
import type { Decimal } from "../../domain/decimal";
import type { Stats } from "../../domain/types";

/** A path parameter as the queries receive it: the value, or null when it names nothing. */
export type Lookup = string | null;

export interface Broker {
  id: string;
  name: string;
  code: string;
}

export interface Staff {
  id: string;
  name: string;
  email: string;
}

export interface Account {
  id: string;
  customer_id: string;
  broker_id: string;
  account_no: string;
  broker: Broker;
}

/** The account as a holding or a transaction embeds it. */
export interface AccountRef {
  id: string;
  account_no: string;
  broker: Broker;
}

export interface Customer {
  id: string;
  slug: string;
  name: string;
  email: string;
  phone: string;
  staff_id: string;
  staff: Staff;
  accounts: Account[];
}

export interface Holding {
  id: string;
  stock_code: string;
  isin_code: string;
  quantity: number;
  avg_cost: Decimal;
  total_cost: Decimal;
  /** The stock's latest live close as stored; these four are null without a price. */
  market_price: Decimal | null;
  price_date: string | null;
  market_value: Decimal | null;
  unrealized_pnl: Decimal | null;
  account: AccountRef;
}

export interface Transaction {
  id: string;
  trade_date: string;
  stock_code: string;
  isin_code: string;
  type: "buy" | "sell";
  quantity: number;
  price: Decimal;
  total_value: Decimal;
  fee: Decimal;
  personal_tax: Decimal;
  account: AccountRef;
}

/** What one account received (README.md "Corporate actions, average cost, dividends and total return"): a cash dividend or a share credit. */
export interface CorporateAction {
  id: string;
  type: "cash_dividend" | "share_dividend";
  stock_code: string;
  isin_code: string;
  ex_date: string;
  pay_date: string;
  quantity: number;
  gross_amount: Decimal;
  tax: Decimal;
  /** gross_amount - tax, exact. */
  net_amount: Decimal;
  account: AccountRef;
}

/** One page of a customer's corporate actions: like HistoryFilters, dates on ex_date. */
export interface CorporateActionFilters extends Omit<HistoryFilters, "type"> {
  type?: CorporateAction["type"];
}

/** One page of a trade history: codes already in canonical case, dates YYYY-MM-DD. */
export interface HistoryFilters {
  page: number;
  per_page: number;
  broker?: string;
  stock_code?: string;
  type?: "buy" | "sell";
  start_date?: string;
  end_date?: string;
}

/** What the customer's served holdings are worth at their stocks' latest closes (README.md "Valuation"). */
export interface Valuation {
  as_of: string | null;
  cost: Decimal;
  priced_cost: Decimal;
  market_value: Decimal;
  unrealized_pnl: Decimal;
  priced_holdings: number;
  unpriced_holdings: number;
}

/**
 * Stats as served: the stored figures, plus the valuation read with them from the holdings and
 * their latest closes, which a price change moves without the stored figures changing.
 */
export type ServedStats = Stats & { valuation: Valuation };
