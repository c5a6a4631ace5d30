/**
 * Demo data for the back-office (source) database: brokers, the firm's staff, customers with
 * accounts at several brokers, years of trades that follow Vietnamese market rules, and the
 * holdings those trades leave. Rows are plain objects keyed by the source's SQL column names
 * (src/db/source.ts), ready for scripts/demo/load.ts.
 *
 * The book obeys the rules the service applies to it (docs/pnl.md): a holdings row holds what the
 * average-cost walk of its ledger leaves (quantity, and the cost with fees and taxes in, share
 * credits at no cost), computed by that walk (src/domain/average-cost.ts), and no sell sells more
 * shares than the holding holds at that point, credits included. Except for one customer on
 * purpose, HISTORY_BEFORE_DATA_CUSTOMER, whose history began before the data: a few of its sells
 * are of shares bought before its first trade in the book.
 *
 * Everything is reproducible from the seed except customer slugs, which come from newSlug():
 * a slug is a capability, and one derived from a published seed could be recomputed.
 *
 * Pure TypeScript (no node: modules) so the tests can run it inside workerd.
 */
import { type AverageCost, noAverageCost, walkAverageCost } from "../../src/domain/average-cost";
import { SCALE } from "../../src/domain/fixed";
import { fifoOrder, parseCredit, parseTrade, sortedCredits } from "../../src/domain/parse";
import { exactCosts } from "../../src/domain/positions";
import { newSlug } from "../../src/domain/slug";
import { roundDiv } from "../../src/domain/units";
import { type CorporateEvent, corporateCalendar, DIVIDEND_TAX_PERCENT, spreadCredit } from "./actions";
import { BROKERS, INDEX_CODE, indexCloses, isinFor, Market, TICKERS, tradingDays, tradingDaysBefore } from "./market";
import { emailFor, mobilePhone, personName, STAFF_NAMES } from "./people";
import { Random } from "./random";
import type {
  AccountRow,
  BrokerRow,
  CorporateActionRow,
  CustomerRow,
  HoldingRow,
  SourceRow,
  StaffRow,
  StockPriceRow,
  TransactionRow,
} from "../../src/db/source";

export type { AccountRow, BrokerRow, CorporateActionRow, CustomerRow, HoldingRow, StaffRow, StockPriceRow, TransactionRow };

/** One array per source table, in foreign-key order. */
export interface DemoBook {
  brokers: BrokerRow[];
  staff: StaffRow[];
  customers: CustomerRow[];
  accounts: AccountRow[];
  holdings: HoldingRow[];
  transactions: TransactionRow[];
  /** Cash dividends and share credits the accounts received (scripts/demo/actions.ts). */
  corporate_actions: CorporateActionRow[];
  stock_prices: StockPriceRow[];
}

export interface DemoOptions {
  seed?: number;
  customers?: number;
  /** Trades per customer: exactly n, or uniformly between min and max. */
  tradesPerCustomer?: [min: number, max: number] | number;
  /** First and last calendar dates of the trading history, YYYY-MM-DD. */
  startDate?: string;
  endDate?: string;
}

export const DEMO_DEFAULTS = {
  seed: 20_240_601,
  customers: 5,
  tradesPerCustomer: [300, 3000] as [number, number],
  startDate: "2021-01-04",
  endDate: "2025-12-31",
};

/**
 * The customer (by index, 0 = the first generated) whose history began before the data: a few of
 * its sells are of shares bought before its first trade in the book (see sellFromBeforeData), so
 * they sell more than the ledger holds and the P&L leaves the excess out (docs/pnl.md). Every
 * other customer sells only shares it holds.
 */
export const HISTORY_BEFORE_DATA_CUSTOMER = 0;

/** PRNG streams: one for prices, one for the firm, then one per customer (see Random). */
const MARKET_STREAM = 0;
const FIRM_STREAM = 1;
const FIRST_CUSTOMER_STREAM = 2;

/** A buy settles T+2: a sell on trading day d may only use shares bought on day d - 2 or before. */
const SETTLEMENT_DAYS = 2;
const LOT = 100;

const ISINS = TICKERS.map((ticker) => isinFor(ticker.code));

export const emptyBook = (): DemoBook => ({
  brokers: [],
  staff: [],
  customers: [],
  accounts: [],
  holdings: [],
  transactions: [],
  corporate_actions: [],
  stock_prices: [],
});

export function generateDemoBook(options: DemoOptions = {}): DemoBook {
  const book = emptyBook();
  for (const chunk of generateDemoBookChunks(options)) {
    for (const table of Object.keys(book) as (keyof DemoBook)[]) {
      for (const row of chunk[table]) (book[table] as SourceRow[]).push(row);
    }
  }
  return book;
}

/**
 * The same book as generateDemoBook, one piece at a time: first brokers and staff, then the
 * closes of one code per chunk, then one chunk per customer (the customer, accounts, trades and
 * holdings), so a loader can stream a million trades without holding them all.
 */
export function* generateDemoBookChunks(options: DemoOptions = {}): Generator<DemoBook> {
  const { seed, customers, tradesPerCustomer, startDate, endDate } = resolve(options);
  const days = tradingDays(startDate, endDate);
  if (days.length <= SETTLEMENT_DAYS) throw new RangeError("the date range needs more trading days");
  const marketRng = new Random(seed, MARKET_STREAM);
  const market = new Market(marketRng, days);
  // Drawn after every ticker's walk, so the index leaves the tickers' closes as they were.
  const indexDays = [...tradingDaysBefore(days[0]!, INDEX_LEAD_DAYS), ...days];
  const index = { days: indexDays, closes: indexCloses(marketRng, indexDays.length) };

  const firm = new Random(seed, FIRM_STREAM);
  const founded = timestamp(firm, days[0]!, 1);
  const brokers = BROKERS.map((broker) => ({
    id: firm.uuid(),
    code: broker.code,
    name: broker.name,
    updated_at: founded,
    deleted_at: null,
  }));
  const staffEmails = new Set<string>();
  const staff = STAFF_NAMES.map((name) => ({
    id: firm.uuid(),
    name,
    email: emailFor(name, "advisory.example", staffEmails),
    updated_at: founded,
    deleted_at: null,
  }));
  yield { ...emptyBook(), brokers, staff };
  yield* closingPrices(firm, market, index);

  const customerEmails = new Set<string>();
  const calendar = corporateCalendar(days);
  for (let index = 0; index < customers; index++) {
    const rng = new Random(seed, FIRST_CUSTOMER_STREAM + index);
    const trades = rng.int(tradesPerCustomer[0], tradesPerCustomer[1]);
    const customer = new Customer(rng, market, index, brokers, staff[index % staff.length]!, customerEmails);
    yield customer.trade(trades, calendar, index === HISTORY_BEFORE_DATA_CUSTOMER);
  }
}

function resolve(options: DemoOptions) {
  const o = {
    seed: options.seed ?? DEMO_DEFAULTS.seed,
    customers: options.customers ?? DEMO_DEFAULTS.customers,
    startDate: options.startDate ?? DEMO_DEFAULTS.startDate,
    endDate: options.endDate ?? DEMO_DEFAULTS.endDate,
  };
  const trades = options.tradesPerCustomer ?? DEMO_DEFAULTS.tradesPerCustomer;
  const range: [number, number] = typeof trades === "number" ? [trades, trades] : trades;
  const isCount = (n: number) => Number.isInteger(n) && n >= 0;
  if (!Number.isInteger(o.seed)) throw new RangeError("seed must be an integer");
  if (!isCount(o.customers)) throw new RangeError("customers must be a whole number");
  if (!isCount(range[0]) || !isCount(range[1]) || range[0] > range[1])
    throw new RangeError("tradesPerCustomer must be n or [min, max] with 0 <= min <= max");
  for (const date of [o.startDate, o.endDate]) {
    // Round-trip, because Date.parse accepts 2021-02-30 (as 2 March).
    const ms = Date.parse(`${date}T00:00:00Z`);
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date) throw new RangeError(`not a date: ${date}`);
  }
  return { ...o, tradesPerCustomer: range };
}

/** A back-office timestamp on the given date between hour:00 and hour+1:59 UTC, with microseconds. */
function timestamp(rng: Random, date: string, hour: number): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${date}T${pad(hour + rng.int(0, 1))}:${pad(rng.int(0, 59))}:${pad(rng.int(0, 59))}.${pad(rng.int(0, 999_999), 6)}Z`;
}

/** The one ticker the demo leaves without closes, so the page shows an unpriced holding too. */
export const UNPRICED_TICKER = "VCS";
/** VN-Index closes start this many trading days before the period: a benchmark before the first trade. */
export const INDEX_LEAD_DAYS = 30;

/**
 * The official closes, one chunk per code: every ticker but UNPRICED_TICKER on every trading day
 * of the period, in đồng per share, from the market's own walk that the demo's trades were filled
 * near; then VN-Index (INDEX_CODE), in points, from INDEX_LEAD_DAYS trading days before the period
 * on. So every customer is valued, and has a benchmark, on every trading day from its first trade.
 */
function* closingPrices(
  rng: Random,
  market: Market,
  index: { days: readonly string[]; closes: Int32Array },
): Generator<DemoBook> {
  const row = (stock_code: string, trade_date: string, close_price: string): StockPriceRow => ({
    id: rng.uuid(),
    stock_code,
    trade_date,
    close_price,
    // Booked after the session closes (15:00 in Vietnam, 08:00 UTC).
    updated_at: timestamp(rng, trade_date, 8),
    deleted_at: null,
  });
  for (const [i, ticker] of TICKERS.entries()) {
    if (ticker.code === UNPRICED_TICKER) continue;
    const stock_prices = market.days.map((date, day) => row(ticker.code, date, wholeDong(market.close(i, day))));
    yield { ...emptyBook(), stock_prices };
  }
  // Hundredths of a point, written like hundredths of a đồng.
  const stock_prices = index.days.map((date, day) => row(INDEX_CODE, date, centiDong(index.closes[day]!)));
  yield { ...emptyBook(), stock_prices };
}

/** Money columns are numeric(20,4); written the way Postgres prints them. */
const wholeDong = (dong: number) => `${dong}.0000`;
const centiDong = (centi: number) => `${Math.floor(centi / 100)}.${String(centi % 100).padStart(2, "0")}00`;
const scaled4 = (value: bigint) => `${value / 10_000n}.${String(value % 10_000n).padStart(4, "0")}`;

/**
 * Shares bought together and what is left of them (credited shares join the lots), for the T+2
 * rule: a sell takes only settled shares. What they cost is not kept here: the holdings' cost is
 * the average-cost walk of the ledger (heldCost).
 */
interface Lot {
  day: number;
  remaining: number;
}

interface Position {
  ticker: number;
  /** Oldest first; a sell consumes from the front (FIFO). */
  lots: Lot[];
  quantity: number;
  updatedAt: string;
}

interface Account {
  row: AccountRow;
  /** Broker fee per side in units of 0.001% (100 = 0.10%, 350 = 0.35%). */
  feeRate: number;
  /** Most brokers round the fee to whole đồng; some keep the exact amount. */
  roundsFee: boolean;
  positions: Map<number, Position>;
}

/** One customer's accounts and their trading history, simulated in date order. */
class Customer {
  private readonly book = emptyBook();
  private readonly accounts: Account[];
  /** The tickers this customer follows; buys come from here. */
  private readonly watchlist: number[];
  /** Typical order size in VND: some customers trade tens of millions, some hundreds. */
  private readonly orderValue: number;
  private readonly firstDay: number;

  constructor(
    private readonly rng: Random,
    private readonly market: Market,
    index: number,
    brokers: BrokerRow[],
    staff: StaffRow,
    emails: Set<string>,
  ) {
    const days = market.days;
    this.firstDay = rng.int(0, Math.floor((days.length - 1) * 0.3));
    const since = timestamp(rng, days[this.firstDay]!, 2);
    const name = personName(rng);
    const customer: CustomerRow = {
      id: rng.uuid(),
      slug: newSlug(),
      name,
      email: emailFor(name, "example.com", emails),
      phone: mobilePhone(rng),
      staff_id: staff.id,
      updated_at: since,
      deleted_at: null,
    };
    this.book.customers.push(customer);

    const brokerIndexes = rng.sample(
      BROKERS.map((_, i) => i),
      rng.pick([1, 2, 2, 3]),
    );
    this.accounts = brokerIndexes.map((b) => {
      const row: AccountRow = {
        id: rng.uuid(),
        customer_id: customer.id,
        broker_id: brokers[b]!.id,
        account_no: accountNumber(b, index),
        updated_at: since,
        deleted_at: null,
      };
      this.book.accounts.push(row);
      return {
        row,
        feeRate: rng.pick([100, 150, 150, 177, 200, 250, 300, 350]),
        roundsFee: rng.chance(0.75),
        positions: new Map(),
      };
    });

    this.watchlist = rng.sample(
      TICKERS.map((_, i) => i),
      rng.int(8, 16),
    );
    this.orderValue = Math.exp(Math.log(20e6) + rng.float() * Math.log(20));
  }

  /** `beforeData`: this customer's history began before the data (HISTORY_BEFORE_DATA_CUSTOMER). */
  trade(count: number, calendar: readonly CorporateEvent[] = [], beforeData = false): DemoBook {
    const { rng } = this;
    const lastDay = this.market.days.length - 1;
    const tradeDays = Int32Array.from({ length: count }, () => rng.int(this.firstDay, lastDay)).sort();
    // A few sells of shares bought before the data began, which have no buy in it (see
    // sellFromBeforeData). Each is the customer's last trade of its day: P&L matching takes a
    // day's buys before its sells, and a later buy that day would otherwise fill the unmatched part.
    const beforeDataAt = new Set<number>();
    if (beforeData && count >= 20) {
      for (let k = rng.int(1, 3); k > 0; k--) {
        let i = rng.int(Math.floor(count / 4), count - 1);
        while (i + 1 < count && tradeDays[i + 1] === tradeDays[i]) i++;
        beforeDataAt.add(i);
      }
    }

    let nextEvent = 0;
    for (let i = 0; i < count; i++) {
      const day = tradeDays[i]!;
      // What the accounts received before this day's trades (a credit counts from its ex-date).
      while (nextEvent < calendar.length && calendar[nextEvent]!.exDay <= day) this.receive(calendar[nextEvent++]!);
      const account = rng.pick(this.accounts);
      const sellChance = Math.min(0.8, 0.15 + 0.1 * account.positions.size);
      const done =
        (beforeDataAt.has(i) && this.sellFromBeforeData(account, day)) || (rng.chance(sellChance) && this.sell(account, day));
      if (!done) this.buy(account, day);
    }
    // After the last trade, events until the end of the demo period still reach what is held.
    while (nextEvent < calendar.length) this.receive(calendar[nextEvent++]!);
    this.addHoldings();
    return this.book;
  }

  /** One issuer's event, for every account holding its stock: a cash dividend or a share credit. */
  private receive(event: CorporateEvent): void {
    const { rng } = this;
    for (const account of this.accounts) {
      const position = account.positions.get(event.ticker);
      if (!position) continue;
      const held = position.quantity;
      const base = {
        id: rng.uuid(),
        account_id: account.row.id,
        stock_code: TICKERS[event.ticker]!.code,
        isin_code: ISINS[event.ticker]!,
        ex_date: this.market.days[event.exDay]!,
        pay_date: this.market.days[event.payDay]!,
        // Booked by the back office on the payment date.
        updated_at: timestamp(rng, this.market.days[event.payDay]!, 8),
        deleted_at: null,
      };
      if ("cash" in event.kind) {
        const gross = BigInt(held) * BigInt(event.kind.cash);
        const tax = (gross * DIVIDEND_TAX_PERCENT) / 100n;
        this.book.corporate_actions.push({
          ...base,
          type: "cash_dividend",
          quantity: held,
          gross_amount: wholeDong(Number(gross)),
          tax: wholeDong(Number(tax)),
        });
        continue;
      }
      const quantity = Math.floor((held * event.kind.per100) / 100);
      if (quantity === 0) continue;
      this.book.corporate_actions.push({ ...base, type: "share_dividend", quantity, gross_amount: "0.0000", tax: "0.0000" });
      const parts = spreadCredit(
        position.lots.map((lot) => lot.remaining),
        quantity,
      );
      position.lots.forEach((lot, i) => {
        lot.remaining += parts[i]!;
      });
      position.quantity += quantity;
    }
  }

  private buy(account: Account, day: number): void {
    const { rng } = this;
    const held = [...account.positions.keys()];
    const ticker = held.length > 0 && rng.chance(0.35) ? rng.pick(held) : rng.pick(this.watchlist);
    const price = this.market.close(ticker, day);
    const value = this.orderValue * Math.exp(0.5 * rng.gauss());
    const quantity = Math.min(2000, Math.max(1, Math.round(value / price / LOT))) * LOT;
    const trade = this.record(account, day, ticker, "buy", quantity);

    let position = account.positions.get(ticker);
    if (!position) account.positions.set(ticker, (position = { ticker, lots: [], quantity: 0, updatedAt: "" }));
    position.lots.push({ day, remaining: quantity });
    position.quantity += quantity;
    position.updatedAt = trade.row.updated_at;
  }

  /** Sells some or all of a position's settled shares; false when nothing has settled. */
  private sell(account: Account, day: number): boolean {
    const { rng } = this;
    const sellable: [Position, number][] = [];
    for (const position of account.positions.values()) {
      // Board lots only: odd shares from a credit stay held.
      const lots = Math.floor(settledQuantity(position, day) / LOT);
      if (lots > 0) sellable.push([position, lots]);
    }
    if (sellable.length === 0) return false;
    const [position, lots] = rng.pick(sellable);
    const quantity = (rng.chance(0.5) ? lots : rng.int(1, lots)) * LOT;
    const trade = this.record(account, day, position.ticker, "sell", quantity);
    consume(position, quantity);
    position.updatedAt = trade.row.updated_at;
    if (position.quantity === 0) account.positions.delete(position.ticker);
    return true;
  }

  /**
   * Sells shares bought before the data began (HISTORY_BEFORE_DATA_CUSTOMER only): they never
   * appear as buys, so the sell exceeds what the data shows was bought (all of it, or beyond a
   * settled position), and the position is closed. The sync and P&L must treat the excess as
   * unmatched. Only where nothing bought is still settling, so FIFO matching and the T+2 rule
   * agree on what the sell consumed.
   */
  private sellFromBeforeData(account: Account, day: number): boolean {
    const { rng } = this;
    const candidates = this.watchlist.filter((ticker) => {
      const position = account.positions.get(ticker);
      return !position || position.lots.at(-1)!.day <= day - SETTLEMENT_DAYS;
    });
    if (candidates.length === 0) return false;
    const ticker = rng.pick(candidates);
    // In board lots, beyond everything held, odd credited shares included.
    const held = account.positions.get(ticker)?.quantity ?? 0;
    this.record(account, day, ticker, "sell", Math.floor(held / LOT) * LOT + rng.int(1, 5) * LOT);
    account.positions.delete(ticker);
    return true;
  }

  private record(account: Account, day: number, ticker: number, type: "buy" | "sell", quantity: number) {
    const { rng } = this;
    const price = this.market.tradePrice(rng, ticker, day);
    // Whole đồng: prices are multiples of 10 and quantities of 100, so value / 1000 is exact too.
    const totalValue = quantity * price;
    const exactFeeCenti = (totalValue / 1000) * account.feeRate;
    const feeCenti = account.roundsFee ? Math.round(exactFeeCenti / 100) * 100 : exactFeeCenti;
    const row: TransactionRow = {
      id: rng.uuid(),
      account_id: account.row.id,
      trade_date: this.market.days[day]!,
      stock_code: TICKERS[ticker]!.code,
      isin_code: ISINS[ticker]!,
      type,
      quantity,
      price: wholeDong(price),
      total_value: wholeDong(totalValue),
      fee: centiDong(feeCenti),
      // Personal income tax: 0.1% of the sale value, withheld on every sell.
      personal_tax: wholeDong(type === "sell" ? totalValue / 1000 : 0),
      // Booked after the close (15:00 in Vietnam, 08:00 UTC).
      updated_at: timestamp(rng, this.market.days[day]!, 8),
      deleted_at: null,
    };
    this.book.transactions.push(row);
    return { row };
  }

  /** A holdings row per open position: the shares and cost the average-cost walk of its ledger leaves. */
  private addHoldings(): void {
    const ledgers = new Map<string, { trades: TransactionRow[]; credits: CorporateActionRow[] }>();
    const ledger = (account_id: string, stock_code: string) => {
      const key = `${account_id}|${stock_code}`;
      let found = ledgers.get(key);
      if (!found) ledgers.set(key, (found = { trades: [], credits: [] }));
      return found;
    };
    for (const t of this.book.transactions) ledger(t.account_id, t.stock_code).trades.push(t);
    for (const c of this.book.corporate_actions)
      if (c.type === "share_dividend") ledger(c.account_id, c.stock_code).credits.push(c);
    for (const account of this.accounts) {
      for (const position of account.positions.values()) {
        const code = TICKERS[position.ticker]!.code;
        const { trades, credits } = ledger(account.row.id, code);
        const held = heldCost(trades, credits);
        // The simulation and the walk must agree on the shares: a sell never took more than was held.
        if (held.shares !== position.quantity)
          throw new Error(`demo book: ${code} holds ${position.quantity} shares, its ledger ${held.shares}`);
        this.book.holdings.push({
          id: this.rng.uuid(),
          account_id: account.row.id,
          stock_code: code,
          isin_code: ISINS[position.ticker]!,
          quantity: held.shares,
          avg_cost: scaled4(held.avgCost),
          total_cost: scaled4(held.totalCost),
          updated_at: position.updatedAt,
          deleted_at: null,
        });
      }
    }
  }
}

/**
 * What one holding's ledger leaves by the average-cost walk the service's P&L uses
 * (src/domain/average-cost.ts, docs/pnl.md): its shares, and their cost and cost per share in
 * units of 0.0001 đồng, as the holdings columns store them (numeric(20,4)), rounded half up. The
 * walk keeps the cost truncated to the fixed scale within `inexact` units; only when that bound
 * leaves the rounding undecided is the cost taken exactly (src/domain/positions.ts exactCosts).
 */
export function heldCost(
  trades: readonly TransactionRow[],
  credits: readonly CorporateActionRow[],
): { shares: number; totalCost: bigint; avgCost: bigint } {
  const parsed = trades.map(parseTrade).sort(fifoOrder);
  const state: AverageCost = noAverageCost();
  walkAverageCost(parsed, sortedCredits(credits.map(parseCredit)), state, () => {});
  const { shares } = state;
  if (shares === 0) return { shares, totalCost: 0n, avgCost: 0n };
  const per = SCALE * BigInt(shares);
  const k = BigInt(state.inexact);
  let totalCost = roundDiv(state.cost, SCALE);
  let avgCost = roundDiv(state.cost, per);
  const decided = (d: bigint) => roundDiv(state.cost - k, d) === roundDiv(state.cost + k, d);
  if (k > 0n && !(decided(SCALE) && decided(per))) {
    const exact = exactCosts(trades, credits, ["9999-12-31"]).get("9999-12-31")!;
    totalCost = roundDiv(exact.num, exact.den);
    avgCost = roundDiv(exact.num, exact.den * BigInt(shares));
  }
  return { shares, totalCost, avgCost };
}

/**
 * Unique per broker: the customer index goes through a bijection of 0..999,999, so numbers
 * look scattered but never repeat (for up to a million customers).
 */
function accountNumber(brokerIndex: number, customerIndex: number): string {
  const serial = (customerIndex * 7_919 + brokerIndex * 131_071 + 104_729) % 1_000_000;
  return `${BROKERS[brokerIndex]!.accountPrefix}C${String(serial).padStart(6, "0")}`;
}

function settledQuantity(position: Position, day: number): number {
  let settled = 0;
  for (const lot of position.lots) {
    if (lot.day > day - SETTLEMENT_DAYS) break;
    settled += lot.remaining;
  }
  return settled;
}

function consume(position: Position, quantity: number): void {
  position.quantity -= quantity;
  while (quantity > 0) {
    const lot = position.lots[0]!;
    const taken = Math.min(quantity, lot.remaining);
    lot.remaining -= taken;
    quantity -= taken;
    if (lot.remaining === 0) position.lots.shift();
  }
}
