/**
 * The demo book must look like a real back office's data and obey the market rules the P&L
 * engine and the sync assume. Pure: no database, so it runs in workerd and in plain Node.
 */
import { getTableConfig } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import {
  DEMO_DEFAULTS,
  generateDemoBook,
  HISTORY_BEFORE_DATA_CUSTOMER,
  generateDemoBookChunks,
  INDEX_LEAD_DAYS,
  UNPRICED_TICKER,
  type DemoBook,
} from "../../scripts/demo/generate";
import { INDEX_CODE, isinFor, TICKERS, tickSize, tradingDays, tradingDaysBefore } from "../../scripts/demo/market";
import { sourceTables } from "../../src/db/source";

const book = generateDemoBook();
/** A year, so its closes stay few (every code closes every trading day of the period). */
const small = {
  seed: 7,
  customers: 3,
  tradesPerCustomer: [40, 120] as [number, number],
  startDate: "2025-01-02",
  endDate: "2025-12-31",
};

const withoutSlugs = (b: DemoBook) => ({ ...b, customers: b.customers.map(({ slug: _, ...rest }) => rest) });

/** A numeric(20,4) string as an integer count of 0.0001 đồng. */
const scaled = (money: string) => {
  expect(money).toMatch(/^\d+\.\d{4}$/);
  return BigInt(money.replace(".", ""));
};

/** ISO 6166: letters to 10..35, and the Luhn sum of the whole code is a multiple of 10. */
function isValidIsin(isin: string): boolean {
  if (!/^[A-Z]{2}[A-Z0-9]{9}\d$/.test(isin)) return false;
  const digits = [...isin].map((ch) => parseInt(ch, 36)).join("");
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** Each code's closes, in the order the book has them. */
function closesByCode(b: DemoBook): Map<string, DemoBook["stock_prices"]> {
  const byCode = new Map<string, DemoBook["stock_prices"]>();
  for (const p of b.stock_prices) {
    const closes = byCode.get(p.stock_code);
    if (closes) closes.push(p);
    else byCode.set(p.stock_code, [p]);
  }
  return byCode;
}

/** The default demo over its period, and a small book over a shorter one starting mid-year. */
const periods = () => [
  { b: book, start: DEMO_DEFAULTS.startDate, end: DEMO_DEFAULTS.endDate },
  { b: generateDemoBook({ ...small, startDate: "2024-05-06", endDate: "2024-12-31" }), start: "2024-05-06", end: "2024-12-31" },
];

describe("demo book", () => {
  it("is the same for the same seed, except the slugs", () => {
    const a = generateDemoBook(small);
    const b = generateDemoBook(small);
    expect(withoutSlugs(a)).toEqual(withoutSlugs(b));
    expect(a.customers.map((c) => c.slug)).not.toEqual(b.customers.map((c) => c.slug));
    expect(withoutSlugs(generateDemoBook({ ...small, seed: 8 }))).not.toEqual(withoutSlugs(a));
  });

  it("streams the same book in chunks: brokers and staff first, then one code's closes each, then one customer each", () => {
    const chunks = [...generateDemoBookChunks({ ...small, tradesPerCustomer: 50 })];
    // Every ticker but the unpriced one, and the index.
    const codes = TICKERS.length;
    expect(chunks).toHaveLength(1 + codes + 3);
    expect(chunks[0]!.brokers.length).toBeGreaterThan(0);
    expect(chunks[0]!.customers).toHaveLength(0);
    for (const chunk of chunks.slice(1, 1 + codes)) {
      expect(new Set(chunk.stock_prices.map((p) => p.stock_code)).size).toBe(1);
      expect(chunk.customers).toHaveLength(0);
    }
    for (const chunk of chunks.slice(1 + codes)) {
      expect(chunk.customers).toHaveLength(1);
      expect(chunk.transactions).toHaveLength(50);
      expect(chunk.stock_prices).toHaveLength(0);
    }
    const joined = generateDemoBook({ ...small, tradesPerCustomer: 50 });
    expect(joined.transactions).toEqual(chunks.flatMap((c) => c.transactions));
    expect(joined.stock_prices).toEqual(chunks.flatMap((c) => c.stock_prices));
  });

  it("has rows keyed exactly by the source tables' columns", () => {
    for (const [table, schema] of Object.entries(sourceTables)) {
      const columns = getTableConfig(schema)
        .columns.map((c) => c.name)
        .sort();
      // One shape per table: the distinct key lists, not one assertion per row (some 57,000 closes).
      const shapes = new Set(book[table as keyof DemoBook].map((row) => Object.keys(row).sort().join()));
      expect([...shapes], table).toEqual([columns.join()]);
    }
  });

  it("closes every ticker but one on every trading day of the period, at the market's ticks", () => {
    const days = tradingDays("2021-01-04", "2025-12-31");
    const byCode = closesByCode(book);
    expect([...byCode.keys()].sort()).toEqual(
      [...TICKERS.map((t) => t.code).filter((c) => c !== UNPRICED_TICKER), INDEX_CODE].sort(),
    );
    // Collected rather than asserted row by row: some 55,000 closes.
    const offTick: string[] = [];
    for (const ticker of TICKERS) {
      const closes = byCode.get(ticker.code);
      if (ticker.code === UNPRICED_TICKER) continue;
      expect(
        closes!.map((p) => p.trade_date),
        ticker.code,
      ).toEqual(days);
      for (const p of closes!) {
        const close = Number(p.close_price.slice(0, -5));
        const onTick = /^\d+\.0000$/.test(p.close_price) && close > 0 && close % tickSize(close, ticker.exchange) === 0;
        if (!onTick || p.updated_at.slice(0, 10) !== p.trade_date) offTick.push(`${p.stock_code} ${p.trade_date}`);
      }
    }
    expect(offTick).toEqual([]);
    // The walk the trades were filled near: every fill is within two ticks of its day's close.
    const exchange = new Map(TICKERS.map((t) => [t.code, t.exchange]));
    const closeOn = new Map(book.stock_prices.map((p) => [`${p.stock_code}|${p.trade_date}`, Number(p.close_price)]));
    const farFills = book.transactions.filter((t) => {
      if (t.stock_code === UNPRICED_TICKER) return false;
      const close = closeOn.get(`${t.stock_code}|${t.trade_date}`)!;
      const price = Number(t.price);
      return Math.abs(price - close) > 2 * tickSize(Math.max(price, close), exchange.get(t.stock_code)!);
    });
    expect(farFills).toEqual([]);
    // So the demo shows valued and unpriced holdings alike.
    expect(book.holdings.some((h) => byCode.has(h.stock_code))).toBe(true);
    expect(book.holdings.some((h) => h.stock_code === UNPRICED_TICKER)).toBe(true);
  });

  it("closes every traded code but the unpriced one on every trading day from its first trade, for any period", () => {
    for (const { b, end } of periods()) {
      const byCode = closesByCode(b);
      const firstTrade = new Map<string, string>();
      const events = [...b.transactions, ...b.corporate_actions.map((c) => ({ ...c, trade_date: c.ex_date }))];
      for (const { stock_code, trade_date } of events) {
        const first = firstTrade.get(stock_code);
        if (first === undefined || trade_date < first) firstTrade.set(stock_code, trade_date);
      }
      expect(firstTrade.size).toBeGreaterThan(5);
      for (const [code, first] of firstTrade) {
        const dates = new Set((byCode.get(code) ?? []).map((p) => p.trade_date));
        if (code === UNPRICED_TICKER) {
          expect(dates.size).toBe(0);
          continue;
        }
        const missing = tradingDays(first, end).filter((d) => !dates.has(d));
        expect(missing, code).toEqual([]);
      }
    }
    // The default demo trades the unpriced ticker, so its page shows an unpriced holding.
    expect(book.transactions.some((t) => t.stock_code === UNPRICED_TICKER)).toBe(true);
  });

  it("closes VN-Index from before the first trade to the last day, in points with 2 decimals", () => {
    for (const { b, start, end } of periods()) {
      const firstTrade = b.transactions.map((t) => t.trade_date).sort()[0]!;
      const index = closesByCode(b).get(INDEX_CODE)!;
      expect(index.map((p) => p.trade_date)).toEqual([...tradingDaysBefore(start, INDEX_LEAD_DAYS), ...tradingDays(start, end)]);
      expect(index[0]!.trade_date < firstTrade).toBe(true);
      // About 1,000 to 1,300 points, as VN-Index in these years, never moving much more than HOSE's 7% a day.
      const odd = index.filter((p, i) => {
        const points = Number(p.close_price);
        const move = i === 0 ? 0 : Math.abs(points / Number(index[i - 1]!.close_price) - 1);
        const twoDecimals = /^\d+\.\d{2}00$/.test(p.close_price);
        return !twoDecimals || points <= 900 || points >= 1_450 || move > 0.0726 || p.updated_at.slice(0, 10) !== p.trade_date;
      });
      expect(odd).toEqual([]);
    }
  });

  it("gives customers unguessable, distinct slugs", () => {
    const slugs = book.customers.map((c) => c.slug);
    for (const slug of slugs) expect(slug).toMatch(/^[a-z2-7]{26}$/);
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  it("uses distinct version 4 uuids for every row", () => {
    const ids = Object.values(book).flatMap((rows: { id: string }[]) => rows.map((r) => r.id));
    expect(ids.filter((id) => !/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("matches the default demo: 3 staff, 5 customers with 1 to 3 accounts at different brokers", () => {
    expect(book.staff).toHaveLength(3);
    expect(book.customers).toHaveLength(5);
    const brokerCodes = new Set(book.brokers.map((b) => b.code));
    for (const code of ["SSI", "VND", "VCI", "TCBS", "VPS", "HCM", "MBS", "KBSV"]) expect(brokerCodes).toContain(code);
    for (const customer of book.customers) {
      expect(customer.phone).toMatch(/^\+84\d{9}$/);
      expect(customer.email).toMatch(/^[a-z0-9.]+@example\.com$/);
      const accounts = book.accounts.filter((a) => a.customer_id === customer.id);
      expect(accounts.length).toBeGreaterThanOrEqual(1);
      expect(accounts.length).toBeLessThanOrEqual(3);
      expect(new Set(accounts.map((a) => a.broker_id)).size).toBe(accounts.length);
      const accountIds = new Set(accounts.map((a) => a.id));
      const trades = book.transactions.filter((t) => accountIds.has(t.account_id)).length;
      expect(trades).toBeGreaterThanOrEqual(300);
      expect(trades).toBeLessThanOrEqual(3000);
    }
    expect(new Set(TICKERS.map((t) => t.code)).size).toBeGreaterThanOrEqual(30);
    expect(new Set(book.transactions.map((t) => t.stock_code)).size).toBeGreaterThanOrEqual(25);
  });

  it("gives every stock a valid ISIN: VN000000 + ticker + Luhn check digit", () => {
    expect(isinFor("VNM")).toBe("VN000000VNM8");
    expect(isinFor("FPT")).toBe("VN000000FPT1");
    expect(isinFor("HPG")).toBe("VN000000HPG4");
    expect(isinFor("VCB")).toBe("VN000000VCB4");
    expect(isValidIsin("VN000000VNM9")).toBe(false);
    for (const row of [...book.transactions, ...book.holdings]) {
      expect(row.isin_code).toBe(`VN000000${row.stock_code}${row.isin_code.at(-1)}`);
      expect(isValidIsin(row.isin_code)).toBe(true);
    }
  });

  it("prices trades in board lots and on ticks, with value, fee and tax consistent", () => {
    const exchange = new Map(TICKERS.map((t) => [t.code, t.exchange]));
    for (const t of book.transactions) {
      // Board lots: odd shares from a credit are held, never traded here.
      expect(t.quantity % 100).toBe(0);
      expect(t.quantity).toBeGreaterThan(0);
      const price = scaled(t.price);
      const value = scaled(t.total_value);
      const fee = scaled(t.fee);
      expect(price % BigInt(tickSize(Number(price / 10_000n), exchange.get(t.stock_code)!) * 10_000)).toBe(0n);
      expect(value).toBe(price * BigInt(t.quantity));
      // 0.10%..0.35% of the value, give or take the rounding to whole đồng (5000 = 0.5 đồng).
      expect(fee * 1000n).toBeGreaterThanOrEqual(value - 5000n * 1000n);
      expect(fee * 1000n).toBeLessThanOrEqual((value * 35n) / 10n + 5000n * 1000n);
      expect(scaled(t.personal_tax)).toBe(t.type === "sell" ? value / 1000n : 0n);
    }
    expect(book.transactions.some((t) => !t.fee.endsWith(".0000"))).toBe(true);
  });

  it("trades on weekdays within the demo period, booked after the close", () => {
    for (const t of book.transactions) {
      expect(t.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
      const weekday = new Date(`${t.trade_date}T00:00:00Z`).getUTCDay();
      expect(weekday).not.toBe(0);
      expect(weekday).not.toBe(6);
      expect(t.trade_date >= "2021-01-04" && t.trade_date <= "2025-12-31").toBe(true);
      expect(t.updated_at.startsWith(t.trade_date)).toBe(true);
    }
  });

  it("sells only settled shares (T+2) it holds, except the customer whose history began before the data, and holds what the trades and credits leave", () => {
    const dayIndex = new Map(tradingDays("2021-01-04", "2025-12-31").map((d, i) => [d, i]));
    // What P&L matching sees: per account and stock, by date, a day's credits, then its buys, then its sells.
    const rank = (e: { kind: string }) => ["credit", "buy", "sell"].indexOf(e.kind);
    const events = [
      ...book.transactions.map((t) => ({ kind: t.type, date: t.trade_date, row: t })),
      ...book.corporate_actions
        .filter((c) => c.type === "share_dividend")
        .map((c) => ({ kind: "credit", date: c.ex_date, row: { ...c, trade_date: c.ex_date } })),
    ].sort((a, b) => a.date.localeCompare(b.date) || rank(a) - rank(b));
    // Per holding: its FIFO lots (for T+2) and the average-cost walk of docs/pnl.md, worked out
    // here with exact fractions: shares, and their cost num / den in 0.0001 đồng (a buy adds its
    // value, fee and tax; a credit adds shares at no cost; a sell of m of Q shares keeps (Q - m) / Q).
    const holdingOf = new Map<string, { lots: { day: number; remaining: number }[]; shares: number; num: bigint; den: bigint }>();
    const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
    const exceptional = new Set(
      book.accounts.filter((a) => a.customer_id === book.customers[HISTORY_BEFORE_DATA_CUSTOMER]!.id).map((a) => a.id),
    );
    const beforeDataSells: string[] = [];
    for (const { kind, row: t } of events) {
      const key = `${t.account_id}|${t.stock_code}`;
      const holding = holdingOf.get(key) ?? { lots: [], shares: 0, num: 0n, den: 1n };
      holdingOf.set(key, holding);
      const open = holding.lots;
      const day = dayIndex.get(t.trade_date)!;
      const held = open.reduce((s, l) => s + l.remaining, 0);
      expect(held).toBe(holding.shares);
      if (kind === "credit") {
        holding.shares += t.quantity;
        // Spread over the open lots by the largest remainder, ties to the earlier lot
        // (docs/corporate-actions.md).
        if (held === 0) {
          open.push({ day, remaining: t.quantity });
          continue;
        }
        const parts = open.map((l, i) => ({
          i,
          share: Math.floor((t.quantity * l.remaining) / held),
          rest: (t.quantity * l.remaining) % held,
        }));
        let left = t.quantity - parts.reduce((s, p) => s + p.share, 0);
        for (const p of [...parts].sort((a, b) => b.rest - a.rest || a.i - b.i)) if (left-- > 0) p.share++;
        for (const p of parts) open[p.i]!.remaining += p.share;
        continue;
      }
      const tx = t as (typeof book.transactions)[number];
      expect(tx.quantity % 100).toBe(0);
      if (kind === "buy") {
        open.push({ day, remaining: tx.quantity });
        holding.shares += tx.quantity;
        holding.num += (scaled(tx.total_value) + scaled(tx.fee) + scaled(tx.personal_tax)) * holding.den;
        continue;
      }
      const settled = open.filter((l) => l.day <= day - 2).reduce((s, l) => s + l.remaining, 0);
      if (tx.quantity > settled) {
        // Shares bought before the data began: beyond everything held, and nothing held is still settling.
        beforeDataSells.push(tx.account_id);
        expect(tx.quantity).toBeGreaterThan(held);
        expect(settled).toBe(held);
      }
      const matched = Math.min(tx.quantity, held);
      if (matched > 0) {
        holding.num *= BigInt(held - matched);
        holding.den *= BigInt(held);
        const g = gcd(holding.num, holding.den);
        if (g > 1n) [holding.num, holding.den] = [holding.num / g, holding.den / g];
        holding.shares -= matched;
      }
      let left = matched;
      while (left > 0) {
        const lot = open[0]!;
        const taken = Math.min(left, lot.remaining);
        lot.remaining -= taken;
        left -= taken;
        if (lot.remaining === 0) open.shift();
      }
    }
    // Only the one customer, a few times.
    expect(beforeDataSells.length).toBeGreaterThan(0);
    expect(beforeDataSells.length).toBeLessThanOrEqual(3);
    expect(beforeDataSells.filter((account) => !exceptional.has(account))).toEqual([]);

    const positions = [...holdingOf].filter(([, h]) => h.shares > 0);
    expect(book.holdings).toHaveLength(positions.length);
    const holdings = new Map(book.holdings.map((h) => [`${h.account_id}|${h.stock_code}`, h]));
    // numeric(20,4), rounded half up.
    const rounded = (num: bigint, den: bigint) => (2n * num + den) / (2n * den);
    for (const [key, h] of positions) {
      const holding = holdings.get(key)!;
      expect(holding.quantity, key).toBe(h.shares);
      expect(scaled(holding.total_cost), key).toBe(rounded(h.num, h.den));
      expect(scaled(holding.avg_cost), key).toBe(rounded(h.num, h.den * BigInt(h.shares)));
    }
  });

  it("books yearly cash dividends with 5% withheld, stock dividends and a bonus issue, on what the accounts held", () => {
    const cash = book.corporate_actions.filter((c) => c.type === "cash_dividend");
    const credits = book.corporate_actions.filter((c) => c.type === "share_dividend");
    expect(cash.length).toBeGreaterThan(10);
    expect(credits.length).toBeGreaterThan(0);
    // The bonus issue: FPT, 20 per 100, ex 2023-11-20.
    const bonus = credits.filter((c) => c.stock_code === "FPT" && c.ex_date === "2023-11-20");
    const stockDividends = credits.filter((c) => c.ex_date.slice(5, 7) === "09");
    expect(bonus.length + stockDividends.length).toBe(credits.length);
    expect(stockDividends.length).toBeGreaterThan(0);
    const accounts = new Set(book.accounts.map((a) => a.id));
    for (const c of book.corporate_actions) {
      expect(accounts.has(c.account_id)).toBe(true);
      expect(c.pay_date >= c.ex_date).toBe(true);
      expect(c.quantity).toBeGreaterThan(0);
      expect(c.updated_at.startsWith(c.pay_date)).toBe(true);
      if (c.type === "share_dividend") {
        expect([c.gross_amount, c.tax]).toEqual(["0.0000", "0.0000"]);
        continue;
      }
      // A whole number of hundreds of đồng a share, 5% of it withheld.
      const gross = scaled(c.gross_amount);
      expect(gross % (BigInt(c.quantity) * 100n * 10_000n)).toBe(0n);
      expect(scaled(c.tax) * 20n).toBe(gross);
    }
    // Every year of the period has cash dividends: they are yearly.
    expect(new Set(cash.map((c) => c.ex_date.slice(0, 4))).size).toBeGreaterThanOrEqual(4);
  });

  it("scales to exactly customers × trades per customer", () => {
    let trades = 0;
    let customers = 0;
    for (const chunk of generateDemoBookChunks({ customers: 20, tradesPerCustomer: 50 })) {
      trades += chunk.transactions.length;
      customers += chunk.customers.length;
    }
    expect(customers).toBe(20);
    expect(trades).toBe(1000);
  });
});
