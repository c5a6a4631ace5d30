/**
 * A small builder for test data: a "book" of brokers, staff, customers, accounts, holdings,
 * transactions and closing prices with source-shaped rows (snake_case columns, money as decimal strings), which a
 * test writes into the source (to sync it) or straight into the target (to read it back).
 * Every id and slug is fresh, so tests never collide.
 */
import { type CreditInput, computeMetrics } from "../../src/domain";
import { newSlug } from "../../src/domain/slug";
import type { Sql } from "../../src/db/client";
import type {
  AccountRow,
  BrokerRow,
  CorporateActionRow,
  CustomerRow,
  HoldingRow,
  StaffRow,
  StockPriceRow,
  TransactionRow,
} from "../../src/db/source";
import { render } from "../../src/sync/database";
import { refreshLatestPrices } from "../../src/sync/prices";

type Stamp = { updated_at: string; deleted_at: string | null };

const stamp = (at?: string): Stamp => ({ updated_at: at ?? "2025-01-01T00:00:00.000000Z", deleted_at: null });
const uuid = () => crypto.randomUUID();

export class Book {
  brokers: BrokerRow[] = [];
  staff: StaffRow[] = [];
  customers: CustomerRow[] = [];
  accounts: AccountRow[] = [];
  holdings: HoldingRow[] = [];
  transactions: TransactionRow[] = [];
  corporate_actions: CorporateActionRow[] = [];
  stock_prices: StockPriceRow[] = [];

  /** A row of `table`: a fresh id, the defaults, the stamp, then what the test gives. */
  private add<T extends Table, R extends Book[T][number]>(table: T, defaults: Omit<R, "id" | keyof Stamp>, p: Partial<R>): R {
    const row = { id: uuid(), ...defaults, ...stamp(), ...p } as R;
    (this[table] as R[]).push(row);
    return row;
  }

  broker(p: Partial<BrokerRow> = {}): BrokerRow {
    return this.add("brokers", { code: "SSI", name: "SSI Securities Corporation" }, p);
  }

  staffMember(p: Partial<StaffRow> = {}): StaffRow {
    return this.add("staff", { name: "Nguyễn Thị Lan", email: "lan@advisory.test" }, p);
  }

  customer(p: Partial<CustomerRow> & { staff_id: string }): CustomerRow {
    const defaults = { slug: newSlug(), name: "Trần Văn Minh", email: "minh@example.test", phone: "+84901234567" };
    return this.add("customers", { ...defaults, staff_id: p.staff_id }, p);
  }

  account(p: Partial<AccountRow> & { customer_id: string; broker_id: string }): AccountRow {
    return this.add("accounts", { account_no: "000C123456", customer_id: p.customer_id, broker_id: p.broker_id }, p);
  }

  holding(p: Partial<HoldingRow> & { account_id: string }): HoldingRow {
    const defaults = {
      stock_code: "FPT",
      isin_code: "VN000000FPT1",
      quantity: 100,
      avg_cost: "100150.0000",
      total_cost: "10015000.0000",
    };
    return this.add("holdings", { ...defaults, account_id: p.account_id }, p);
  }

  /** A trade; total_value defaults to quantity × price, tax to 0.1% of value on sells. */
  trade(
    p: Partial<TransactionRow> & {
      account_id: string;
      trade_date: string;
      type: "buy" | "sell";
      quantity: number;
      price: string;
    },
  ): TransactionRow {
    const totalValue = p.total_value ?? (BigInt(p.quantity) * BigInt(p.price.split(".")[0]!)).toString();
    const { account_id, trade_date, type, quantity, price } = p;
    const tax = type === "sell" ? (Number(totalValue) / 1000).toFixed(4) : "0";
    const defaults = { stock_code: "FPT", isin_code: "VN000000FPT1", total_value: totalValue, fee: "0", personal_tax: tax };
    return this.add("transactions", { ...defaults, account_id, trade_date, type, quantity, price }, p);
  }

  /**
   * A corporate action: by default a share credit of `quantity` FPT shares paid on its ex_date;
   * a cash dividend gives `gross_amount` and `tax`.
   */
  corporateAction(
    p: Partial<CorporateActionRow> & { account_id: string; type: CorporateActionRow["type"]; ex_date: string; quantity: number },
  ): CorporateActionRow {
    const { account_id, type, ex_date, quantity } = p;
    const defaults = { stock_code: "FPT", isin_code: "VN000000FPT1", pay_date: ex_date, gross_amount: "0", tax: "0" };
    return this.add("corporate_actions", { ...defaults, account_id, type, ex_date, quantity }, p);
  }

  /** A stock's close on one day (FPT on 2024-06-28 at 120,000.5 đồng unless told). */
  price(p: Partial<StockPriceRow> = {}): StockPriceRow {
    return this.add("stock_prices", { stock_code: "FPT", trade_date: "2024-06-28", close_price: "120000.5000" }, p);
  }

  /** One customer with staff, a broker and an account: the usual starting point. */
  simpleCustomer(p: { broker?: Partial<BrokerRow>; customer?: Partial<CustomerRow>; account?: Partial<AccountRow> } = {}) {
    const broker = this.broker(p.broker);
    const staff = this.staffMember();
    const customer = this.customer({ staff_id: staff.id, ...p.customer });
    const account = this.account({ customer_id: customer.id, broker_id: broker.id, ...p.account });
    return { broker, staff, customer, account };
  }

  /**
   * One customer with a main account at each of two brokers, SSI 0002 and VND 0001: where the
   * books of what the accounts received, and the browser's book, start.
   */
  twoBrokerCustomer() {
    const ssi = this.broker({ code: "SSI", name: "SSI Securities Corporation" });
    const vnd = this.broker({ code: "VND", name: "VNDIRECT Securities Corporation" });
    const staff = this.staffMember();
    const customer = this.customer({ staff_id: staff.id });
    const ssiMain = this.account({ customer_id: customer.id, broker_id: ssi.id, account_no: "0002" });
    const vndMain = this.account({ customer_id: customer.id, broker_id: vnd.id, account_no: "0001" });
    return { ssi, vnd, staff, customer, ssiMain, vndMain };
  }

  /**
   * A cash dividend with four decimals in every amount, for a list or a page to show digit for
   * digit: 500.0017 đồng a share on 333 HPG, 5% withheld, so net 166,500.5555 - 8,325.0278 =
   * 158,175.5277. Ex 2024-06-20, paid 2024-07-10.
   */
  hpgDividend(p: Partial<CorporateActionRow> & { account_id: string }): CorporateActionRow {
    return this.corporateAction({
      stock_code: "HPG",
      isin_code: "VN000000HPG4",
      type: "cash_dividend",
      ex_date: "2024-06-20",
      pay_date: "2024-07-10",
      quantity: 333,
      gross_amount: "166500.5555",
      tax: "8325.0278",
      ...p,
    });
  }

  /** 50 VNM shares for 3,500,025 đồng (70,000.5 each). No book here has a VNM close: the unpriced holding. */
  vnmHolding(account_id: string): HoldingRow {
    return this.holding({
      account_id,
      stock_code: "VNM",
      isin_code: "VN000000VNM8",
      quantity: 50,
      avg_cost: "70000.5000",
      total_cost: "3500025.0000",
    });
  }
}

const TABLES = [
  "brokers",
  "staff",
  "customers",
  "accounts",
  "holdings",
  "transactions",
  "corporate_actions",
  "stock_prices",
] as const;
export type Table = (typeof TABLES)[number];

/** Writes the book into a source database, one set-based insert per table, in one transaction. */
export async function writeSource(sql: Sql, book: Book): Promise<void> {
  const statements = TABLES.filter((t) => book[t].length > 0).map((t) =>
    sql.query(`insert into ${t} select * from json_populate_recordset(null::${t}, $1::json)`, [JSON.stringify(book[t])]),
  );
  if (statements.length) await sql.transaction(statements);
}

/** One more buy in `accountId`, written into the source as a back office would: what a trading day adds. */
export async function addTrade(source: Sql, accountId: string, updated_at = "2025-06-01T00:00:00Z"): Promise<TransactionRow> {
  const more = new Book();
  const trade = more.trade({
    account_id: accountId,
    trade_date: "2024-05-02",
    type: "buy",
    quantity: 10,
    price: "95000",
    updated_at,
  });
  await writeSource(source, more);
  return trade;
}

/**
 * Writes the book straight into a target database, as a finished sync would leave it: every
 * row, soft-deleted ones as tombstones, `updated_at` kept as `source_updated_at`, each
 * transaction's `customer_id` taken from its account, every customer's stats and analytics
 * computed by the domain engine and stored in `customer_metrics`, and each stock's latest close.
 */
export async function writeTarget(sql: Sql, book: Book): Promise<void> {
  const customerOf = new Map(book.accounts.map((a) => [a.id, a.customer_id]));
  const rows = (t: Table) =>
    (book[t] as Array<Record<string, unknown> & Stamp>).map(({ updated_at, ...r }) => ({
      ...r,
      source_updated_at: updated_at,
      ...(t === "transactions" ? { customer_id: customerOf.get(r.account_id as string) } : {}),
    }));
  const statements = TABLES.filter((t) => book[t].length > 0).map((t) =>
    sql.query(`insert into ${t} select * from json_populate_recordset(null::${t}, $1::json)`, [JSON.stringify(rows(t))]),
  );
  if (book.customers.some(isLive)) {
    statements.push(
      sql.query("insert into customer_metrics select * from json_populate_recordset(null::customer_metrics, $1::json)", [
        JSON.stringify(storedMetrics(book)),
      ]),
    );
  }
  if (book.stock_prices.length) {
    statements.push(sql.query("insert into prices_pending select distinct stock_code from stock_prices on conflict do nothing"));
    const refresh = render(refreshLatestPrices().query);
    statements.push(sql.query(refresh.sql, refresh.params));
  }
  if (statements.length) await sql.transaction(statements);
}

const isLive = (row: Stamp) => row.deleted_at === null;

/** Each live customer's metrics over the live trades and share credits of their live accounts. */
function storedMetrics(book: Book) {
  const ownerOfLiveAccount = new Map(book.accounts.filter(isLive).map((a) => [a.id, a.customer_id]));
  const computedAt = new Date().toISOString();
  const owned = (customerId: string) => (r: Stamp & { account_id: string }) =>
    isLive(r) && ownerOfLiveAccount.get(r.account_id) === customerId;
  return book.customers.filter(isLive).map((customer) => ({
    customer_id: customer.id,
    ...computeMetrics(
      book.transactions.filter(owned(customer.id)),
      shareCredits(book.corporate_actions.filter(owned(customer.id))),
      cashDividends(book.corporate_actions.filter(owned(customer.id))),
    ),
    computed_at: computedAt,
  }));
}

/** The cash dividends among corporate actions. */
export const cashDividends = (actions: readonly CorporateActionRow[]): CorporateActionRow[] =>
  actions.filter((c) => c.type === "cash_dividend");

/** The share credits among corporate actions, as the P&L engine takes them. */
export const shareCredits = (actions: readonly CorporateActionRow[]): CreditInput[] =>
  actions.filter((c) => c.type === "share_dividend");

/**
 * The usual customer: accounts at SSI and VND, a holding in each, and three trades (an FPT
 * round trip at SSI with fees, an HPG buy at VND). Prices and fees have decimals, so every
 * suite that reads it exercises exact arithmetic.
 */
export function investorBook(book = new Book()) {
  const ssi = book.broker({ code: "SSI", name: "SSI Securities Corporation" });
  const vnd = book.broker({ code: "VND", name: "VNDIRECT Securities Corporation" });
  const staff = book.staffMember();
  const customer = book.customer({ staff_id: staff.id });
  const ssiAccount = book.account({ customer_id: customer.id, broker_id: ssi.id, account_no: "0001" });
  const vndAccount = book.account({ customer_id: customer.id, broker_id: vnd.id, account_no: "0002" });
  book.holding({ account_id: ssiAccount.id });
  book.holding({
    account_id: vndAccount.id,
    stock_code: "HPG",
    isin_code: "VN000000HPG4",
    quantity: 300,
    avg_cost: "25000.5000",
    total_cost: "7500150.0000",
  });
  book.trade({ account_id: ssiAccount.id, trade_date: "2024-01-05", type: "buy", quantity: 100, price: "100000", fee: "150.25" });
  book.trade({ account_id: ssiAccount.id, trade_date: "2024-02-10", type: "sell", quantity: 100, price: "110000.5", fee: "165" });
  book.trade({
    account_id: vndAccount.id,
    trade_date: "2024-03-01",
    stock_code: "HPG",
    isin_code: "VN000000HPG4",
    type: "buy",
    quantity: 300,
    price: "25000",
  });
  return { book, customer, staff, slug: customer.slug, accounts: { ssi: ssiAccount, vnd: vndAccount }, brokers: { ssi, vnd } };
}

/** The investor and a second customer of the same staff member: one account at SSI, one trade. */
export function twoCustomerBook(book = new Book()) {
  const investor = investorBook(book);
  const other = book.customer({ staff_id: investor.staff.id, name: "Lê Thị Hoa" });
  const otherAccount = book.account({ customer_id: other.id, broker_id: investor.brokers.ssi.id, account_no: "0009" });
  book.trade({ account_id: otherAccount.id, trade_date: "2024-02-15", type: "buy", quantity: 5, price: "101000" });
  return { ...investor, other, otherAccount };
}
