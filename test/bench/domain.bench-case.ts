/**
 * Times computeMetrics on 100,000 trades of one customer, beside a floor: one plain pass over
 * the same array, so the number means something on whatever machine runs it.
 */
import {
  type Continued,
  type HoldingPartial,
  type ResumePoint,
  type TradeInput,
  computeMetrics,
  continuePartial,
  holdingPartial,
  mergePartials,
} from "../../src/domain";

const TRADES = 100_000;
const RUNS = 5;

/** Results feed this module-level value, so the engine cannot drop the timed work. */
let sink = 0;

export interface DomainBenchmark {
  trades: number;
  computeMs: number;
  floorMs: number;
  worstMs: number;
  worstFloorMs: number;
  partialMs: number;
  /** One new trade on that holding, continued from its stored partial (as the sync does). */
  continueMs: number;
  mergeMs: number;
}

export function runDomainBenchmark(): DomainBenchmark {
  const trades = generateTrades(TRADES);
  const worst = generateTrades(TRADES, { coprime: true });
  computeMetrics(trades); // warm-up
  floorPass(trades);
  const computeMs = median(time(() => (sink += computeMetrics(trades).stats.transaction_count)));
  const floorMs = median(time(() => (sink += floorPass(trades))));
  computeMetrics(worst);
  const worstMs = median(time(() => (sink += computeMetrics(worst).stats.transaction_count)));
  const worstFloorMs = median(time(() => (sink += floorPass(worst))));

  // One holding of 100,000 trades: every trade in the same account and stock.
  const one = trades.map((t) => ({ ...t, account_id: "a", stock_code: "ONE" }));
  holdingPartial(one);
  const partialMs = median(time(() => (sink += holdingPartial(one).transactions)));
  const stored = continuePartial(null, one) as Continued;
  const last = one[one.length - 1] as TradeInput;
  const next: TradeInput = {
    ...last,
    id: "ffffffff-0000-4000-8000-000000000000",
    trade_date: "2099-01-02",
    type: "sell",
    quantity: 1,
  };
  const from: ResumePoint = { through: stored.through, partial: stored.partial, position: stored.position, head: stored.opened };
  // The clock inside workerd ticks in whole milliseconds: time 1,000 and divide.
  const continueMs =
    median(
      time(() => {
        for (let i = 0; i < 1_000; i++) sink += continuePartial(from, [next])?.partial.transactions ?? 0;
      }),
    ) / 1_000;

  // 200 holdings' partials, as stored (through JSON), merged into one customer's metrics.
  const holdings = new Map<string, TradeInput[]>();
  for (const [i, t] of trades.slice(0, 20_000).entries()) {
    const key = `h${i % 200}`;
    holdings.set(key, [...(holdings.get(key) ?? []), { ...t, account_id: key }]);
  }
  const partials = JSON.parse(JSON.stringify([...holdings.values()].map((own) => holdingPartial(own)))) as HoldingPartial[];
  mergePartials(partials);
  const mergeMs = median(time(() => (sink += mergePartials(partials)?.stats.transaction_count ?? 0)));
  return { trades: trades.length, computeMs, floorMs, worstMs, worstFloorMs, partialMs, continueMs, mergeMs };
}

function time(run: () => void): number[] {
  return Array.from({ length: RUNS }, () => {
    const start = performance.now();
    run();
    return performance.now() - start;
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Reads each trade once, the least any P&L engine must do. */
function floorPass(trades: readonly TradeInput[]): number {
  let total = 0;
  for (const t of trades) total += t.quantity * 1 + Number(t.fee);
  return total;
}

/**
 * A deterministic history: 3 accounts, 30 tickers, 20 trades a day from 2010 on, buys in
 * board lots of 100, prices on a 50 đồng tick, fee 0.15% (fractional đồng), sell tax 0.1%.
 * Sells take part of the position; one in twenty asks for 10% more than is held.
 *
 * `coprime`, the worst case for exact arithmetic: quantities are distinct primes (so the
 * fractions of split lots and sells share no factors and none is exact in the fixed scale),
 * and every fee has 4 decimals.
 */
export function generateTrades(count: number, { coprime = false } = {}): TradeInput[] {
  const random = mulberry32(20240601);
  const accounts = ["a", "b", "c"].map((c) => `${c.repeat(8)}-0000-4000-8000-000000000000`);
  const tickers = Array.from({ length: 30 }, (_, i) => `T${String(i).padStart(2, "0")}X`);
  const prices = tickers.map(() => 10_000 + Math.floor(random() * 1_800) * 50);
  const held = new Map<string, number>();
  const start = Date.UTC(2010, 0, 1);
  const trades: TradeInput[] = [];

  for (let i = 0; i < count; i++) {
    const account = accounts[Math.floor(random() * accounts.length)] ?? "";
    const t = Math.floor(random() * tickers.length);
    // Prices walk by up to ±3 ticks; never below 1,000 đồng.
    const price = Math.max(1_000, (prices[t] ?? 10_000) + (Math.floor(random() * 7) - 3) * 50);
    prices[t] = price;
    const key = `${account}/${t}`;
    const position = held.get(key) ?? 0;
    const isSell = position > 0 && random() < 0.45;
    let quantity = coprime ? (PRIMES[Math.floor(random() * PRIMES.length)] as number) : 100 * (1 + Math.floor(random() * 20));
    if (isSell) {
      const part = Math.max(1, Math.round((position * (0.2 + random() * 0.8)) / 100)) * 100;
      quantity = random() < 0.05 ? Math.round(position * 1.1) : Math.min(part, position);
      if (coprime) quantity = Math.min(quantity, position) === position ? position : nextPrime(Math.min(quantity, position) - 1);
    }
    held.set(key, isSell ? Math.max(0, position - quantity) : position + quantity);

    const value = quantity * price; // whole đồng
    const units = (n: number) => `${Math.floor(n / 10_000)}.${String(n % 10_000).padStart(4, "0")}`;
    trades.push({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      account_id: account,
      trade_date: new Date(start + Math.floor(i / 20) * 86_400_000).toISOString().slice(0, 10),
      stock_code: tickers[t] ?? "",
      type: isSell ? "sell" : "buy",
      quantity,
      total_value: `${value}.0000`,
      fee: units(value * 15 + (coprime ? 1 + Math.floor(random() * 9_998) : 0)), // 0.15% in 1/10,000 đồng
      personal_tax: isSell ? units(value * 10) : "0.0000", // 0.1%
    });
  }
  return trades;
}

/** Primes from 37 (beyond the fixed scale's factors) to about 2,000. */
const PRIMES = Array.from({ length: 2_000 }, (_, i) => i).filter((n) => n >= 37 && isPrime(n));

function isPrime(n: number): boolean {
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return n > 1;
}

function nextPrime(n: number): number {
  let p = Math.max(n, 37);
  while (!isPrime(p)) p++;
  return p;
}

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
