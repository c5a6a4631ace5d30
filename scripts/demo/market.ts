/**
 * The Vietnamese market the demo trades in: real brokers and listed tickers, ISIN codes, the
 * trading calendar, tick sizes, daily price limits and a simulated closing-price history.
 * Tick sizes and price limits follow the exchanges' rules (HOSE, HNX, UPCoM).
 */
import type { Random } from "./random";

export interface Broker {
  code: string;
  name: string;
  /** Prefix of the demo account numbers at this broker (shape only, not the real member code). */
  accountPrefix: string;
}

export const BROKERS: readonly Broker[] = [
  { code: "SSI", name: "SSI Securities Corporation", accountPrefix: "003" },
  { code: "VND", name: "VNDIRECT Securities Corporation", accountPrefix: "022" },
  { code: "VCI", name: "Vietcap Securities Joint Stock Company", accountPrefix: "075" },
  { code: "TCBS", name: "Techcom Securities Joint Stock Company", accountPrefix: "105" },
  { code: "VPS", name: "VPS Securities Joint Stock Company", accountPrefix: "026" },
  { code: "HCM", name: "Ho Chi Minh City Securities Corporation", accountPrefix: "011" },
  { code: "MBS", name: "MB Securities Joint Stock Company", accountPrefix: "005" },
  { code: "KBSV", name: "KB Securities Vietnam Joint Stock Company", accountPrefix: "091" },
];

export type Exchange = "HOSE" | "HNX";

export interface Ticker {
  code: string;
  exchange: Exchange;
  /** A plausible price in VND at the start of the demo period; the walk reverts towards it. */
  basePrice: number;
  /** Daily volatility of the simulated walk. */
  volatility: number;
}

const t = (code: string, exchange: Exchange, basePrice: number, volatility = 0.018): Ticker => ({
  code,
  exchange,
  basePrice,
  volatility,
});

export const TICKERS: readonly Ticker[] = [
  t("VNM", "HOSE", 108_000, 0.012),
  t("FPT", "HOSE", 70_000, 0.015),
  t("HPG", "HOSE", 42_000, 0.022),
  t("VCB", "HOSE", 98_000, 0.012),
  t("MWG", "HOSE", 125_000, 0.02),
  t("TCB", "HOSE", 38_000, 0.02),
  t("SSI", "HOSE", 32_000, 0.025),
  t("VHM", "HOSE", 98_000, 0.02),
  t("MSN", "HOSE", 95_000, 0.02),
  t("GAS", "HOSE", 88_000, 0.015),
  t("ACB", "HOSE", 33_000, 0.015),
  t("VPB", "HOSE", 36_000, 0.02),
  t("VIC", "HOSE", 105_000, 0.018),
  t("BID", "HOSE", 43_000, 0.017),
  t("CTG", "HOSE", 36_000, 0.018),
  t("MBB", "HOSE", 25_000, 0.018),
  t("STB", "HOSE", 17_000, 0.024),
  t("HDB", "HOSE", 26_000, 0.018),
  t("VRE", "HOSE", 33_000, 0.02),
  t("PLX", "HOSE", 56_000, 0.015),
  t("POW", "HOSE", 12_500, 0.02),
  t("SAB", "HOSE", 185_000, 0.013),
  t("VJC", "HOSE", 125_000, 0.013),
  t("PNJ", "HOSE", 82_000, 0.016),
  t("REE", "HOSE", 52_000, 0.016),
  t("DGC", "HOSE", 58_000, 0.026),
  t("GVR", "HOSE", 26_000, 0.024),
  t("DXG", "HOSE", 17_000, 0.028),
  t("KDH", "HOSE", 31_000, 0.02),
  t("HSG", "HOSE", 21_000, 0.027),
  t("VCI", "HOSE", 42_000, 0.025),
  t("HCM", "HOSE", 29_000, 0.025),
  t("VND", "HOSE", 23_000, 0.028),
  t("DIG", "HOSE", 21_000, 0.03),
  t("PDR", "HOSE", 42_000, 0.028),
  t("NVL", "HOSE", 75_000, 0.025),
  t("HAG", "HOSE", 4_500, 0.03),
  t("HQC", "HOSE", 2_800, 0.03),
  t("ITA", "HOSE", 5_200, 0.03),
  t("SHS", "HNX", 17_000, 0.03),
  t("PVS", "HNX", 21_000, 0.025),
  t("CEO", "HNX", 9_000, 0.032),
  t("IDC", "HNX", 38_000, 0.022),
  t("VCS", "HNX", 95_000, 0.018),
];

/** ISIN check digit (ISO 6166): letters become 10..35, then Luhn over the digit string. */
export function isinCheckDigit(body: string): number {
  let digits = "";
  for (const ch of body.toUpperCase()) digits += parseInt(ch, 36).toString();
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    // The rightmost digit of the body is doubled, since the check digit will follow it.
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Vietnamese shares: `VN000000` + the three-letter ticker + the check digit. */
export function isinFor(ticker: string): string {
  const body = `VN000000${ticker}`;
  return body + isinCheckDigit(body);
}

/** Price step in VND: HOSE steps by price band, HNX uses one step. */
export function tickSize(price: number, exchange: Exchange): number {
  if (exchange === "HNX") return 100;
  if (price < 10_000) return 10;
  if (price < 50_000) return 50;
  return 100;
}

/** Allowed move from the reference (previous close) in one session. */
export const PRICE_LIMIT: Record<Exchange, number> = { HOSE: 0.07, HNX: 0.1 };

const roundToTick = (price: number, exchange: Exchange) => {
  const step = tickSize(price, exchange);
  return Math.round(price / step) * step;
};

/** The lowest and highest prices a session with this reference price can trade at. */
export function priceBand(reference: number, exchange: Exchange): [floor: number, ceiling: number] {
  const low = reference * (1 - PRICE_LIMIT[exchange]);
  const high = reference * (1 + PRICE_LIMIT[exchange]);
  const lowStep = tickSize(low, exchange);
  const highStep = tickSize(high, exchange);
  return [Math.ceil(low / lowStep) * lowStep, Math.floor(high / highStep) * highStep];
}

const clamp = (x: number, [low, high]: [number, number]) => Math.min(high, Math.max(low, x));

const FIXED_HOLIDAYS = new Set(["01-01", "04-30", "05-01", "09-02"]);

/**
 * Trading days from start to end inclusive (YYYY-MM-DD): weekdays, less the fixed-date
 * public holidays. Lunar holidays (Tết, Hùng Kings) move every year and are not modelled.
 */
export function tradingDays(start: string, end: string): string[] {
  const days: string[] = [];
  const last = Date.parse(`${end}T00:00:00Z`);
  for (let ms = Date.parse(`${start}T00:00:00Z`); ms <= last; ms += 86_400_000) {
    const date = new Date(ms);
    const weekday = date.getUTCDay();
    const iso = date.toISOString().slice(0, 10);
    if (weekday !== 0 && weekday !== 6 && !FIXED_HOLIDAYS.has(iso.slice(5))) days.push(iso);
  }
  return days;
}

/** The trading days (as tradingDays counts them) just before `date`, the last `count` of them, oldest first. */
export function tradingDaysBefore(date: string, count: number): string[] {
  const days: string[] = [];
  // Seven weekdays in any nine calendar days, less at most a few holidays: twice over is plenty.
  for (let span = 2 * count + 14; days.length < count; span *= 2) {
    const start = new Date(Date.parse(`${date}T00:00:00Z`) - span * 86_400_000).toISOString().slice(0, 10);
    days.splice(
      0,
      days.length,
      ...tradingDays(start, date)
        .filter((d) => d < date)
        .slice(-count),
    );
  }
  return days;
}

/**
 * VN-Index, the market the demo's customers are compared with (BENCHMARK_CODE's default in
 * src/env.ts): the back office books its closes in stock_prices like a stock's.
 */
export const INDEX_CODE = "VNINDEX";
const INDEX_BASE = 1_150;
const INDEX_LIMIT = Math.log(1 + PRICE_LIMIT.HOSE);

/**
 * The index's closes in hundredths of a point: a random walk pulled back towards INDEX_BASE, so
 * it wanders about 1,000 to 1,300 points for years, moving about 1% a day and never much more
 * than HOSE's daily limit.
 */
export function indexCloses(rng: Random, count: number): Int32Array {
  const closes = new Int32Array(count);
  const anchor = Math.log(INDEX_BASE);
  let points = INDEX_BASE;
  for (let day = 0; day < count; day++) {
    const pull = 0.02 * (anchor - Math.log(points));
    const move = Math.min(INDEX_LIMIT, Math.max(-INDEX_LIMIT, 0.01 * rng.gauss() + pull));
    points = Math.round(points * Math.exp(move) * 100) / 100;
    closes[day] = Math.round(points * 100);
  }
  return closes;
}

/** Closing prices per ticker per trading day, and the prices a trade on a day may take. */
export class Market {
  private readonly closes: Int32Array[];

  constructor(
    rng: Random,
    readonly days: readonly string[],
  ) {
    this.closes = TICKERS.map((ticker) => this.walk(rng, ticker));
  }

  /**
   * A bounded random walk: each close moves within the daily limit of the previous one, lands
   * on a tick, and drifts back towards the base price so prices stay plausible for years.
   */
  private walk(rng: Random, ticker: Ticker): Int32Array {
    const closes = new Int32Array(this.days.length);
    const anchor = Math.log(ticker.basePrice);
    let price = roundToTick(ticker.basePrice, ticker.exchange);
    for (let day = 0; day < closes.length; day++) {
      const pull = 0.01 * (anchor - Math.log(price));
      const proposed = price * Math.exp(ticker.volatility * rng.gauss() + pull);
      price = clamp(roundToTick(proposed, ticker.exchange), priceBand(price, ticker.exchange));
      closes[day] = price;
    }
    return closes;
  }

  close(tickerIndex: number, day: number): number {
    return this.closes[tickerIndex]![day]!;
  }

  /** A fill near the day's close, a few ticks either way, inside the day's price band. */
  tradePrice(rng: Random, tickerIndex: number, day: number): number {
    const ticker = TICKERS[tickerIndex]!;
    const close = this.close(tickerIndex, day);
    const reference = day > 0 ? this.close(tickerIndex, day - 1) : roundToTick(ticker.basePrice, ticker.exchange);
    const fill = close + rng.int(-2, 2) * tickSize(close, ticker.exchange);
    return clamp(roundToTick(fill, ticker.exchange), priceBand(reference, ticker.exchange));
  }
}
