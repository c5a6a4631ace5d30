/**
 * The reference for GET /api/performance/:slug: docs/performance.md read literally, from the
 * source's rows alone, with exact fractions for every figure, rounded once at the end. Every point is
 * recomputed from the ledger (no stored steps): the walk of docs/pnl.md and docs/corporate-actions.md replays every event up
 * to each point. Slow and obvious, written apart from src/domain, so the endpoint can be checked
 * against it on any book.
 */
import type { Book } from "../support/book";
import type { AccountRow, CorporateActionRow, HoldingRow, StockPriceRow, TransactionRow } from "../../src/db/source";
import { Fraction, money } from "../domain/fraction";
import { addDays, daysBetween, minusMonths, mondayOf } from "./calendar";
import { annualize, annualizedMwr, solveMwr } from "./mwr";

export interface PerformanceQueryInput {
  range?: string;
  from?: string;
  to?: string;
  broker?: string;
  interval?: string;
  benchmark?: string;
}

const ZERO = new Fraction(0n);
const ONE = new Fraction(1n);
const MONTHS: Record<string, number> = { "1m": 1, "3m": 3, "6m": 6, "1y": 12, "3y": 36, "5y": 60 };

export const live = (r: { deleted_at: string | null }) => r.deleted_at === null;
const STOCK_CODE = /^[A-Z0-9]{1,10}$/;
const negative = (m: string) => money(m).sign() < 0;

/**
 * The rows the sync lets into the served ledger (the rejection rules of `STREAMS` in src/sync/streams.ts,
 * docs/sync.md): the tests' books hold only such rows, this says so.
 */
export const servedTrade = (t: TransactionRow) =>
  live(t) && t.quantity > 0 && ![t.price, t.total_value, t.fee, t.personal_tax].some(negative) && STOCK_CODE.test(t.stock_code);
export const servedAction = (c: CorporateActionRow) =>
  live(c) &&
  STOCK_CODE.test(c.stock_code) &&
  c.pay_date >= c.ex_date &&
  (c.type === "share_dividend"
    ? c.quantity > 0 && money(c.gross_amount).sign() === 0 && money(c.tax).sign() === 0
    : c.quantity >= 0 && !negative(c.gross_amount) && !negative(c.tax) && money(c.tax).compare(money(c.gross_amount)) <= 0);
export const servedClose = (p: StockPriceRow) => live(p) && STOCK_CODE.test(p.stock_code) && money(p.close_price).sign() > 0;
const servedHolding = (h: HoldingRow) =>
  live(h) && h.quantity >= 0 && !negative(h.avg_cost) && !negative(h.total_cost) && STOCK_CODE.test(h.stock_code);

/** One account's holding of one stock: shares Q and the average-cost walk's C. */
type Position = { shares: bigint; cost: Fraction };
type State = Map<string, Position & { code: string }>;

type Event =
  | { date: string; rank: 0; id: string; credit: CorporateActionRow }
  | { date: string; rank: 1 | 2; id: string; trade: TransactionRow };

/** The share credits and trades in the order of docs/pnl.md and docs/corporate-actions.md: by date, credits, buys, sells, then id. */
export const inWalkOrder = (trades: TransactionRow[], actions: CorporateActionRow[]): Event[] =>
  [
    ...actions
      .filter((c) => c.type === "share_dividend")
      .map((credit): Event => ({ date: credit.ex_date, rank: 0, id: credit.id, credit })),
    ...trades.map((trade): Event => ({ date: trade.trade_date, rank: trade.type === "buy" ? 1 : 2, id: trade.id, trade })),
  ].sort((a, b) => a.date.localeCompare(b.date) || a.rank - b.rank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** What the ledger says at one point d: MV(d), the flows dated d, and the unpriced part. */
interface PointState {
  date: string;
  mv: Fraction;
  inflow: Fraction;
  sells: Fraction;
  dividends: Fraction;
  unpricedValue: Fraction;
  unpricedPositions: number;
  state: State;
}

const key = (accountId: string, code: string) => `${accountId} ${code}`;

/** Closes by code, ascending by date. */
export function closesByCode(closes: StockPriceRow[]): Map<string, { date: string; close: Fraction; text: string }[]> {
  const byCode = new Map<string, { date: string; close: Fraction; text: string }[]>();
  for (const p of closes) {
    const list = byCode.get(p.stock_code) ?? [];
    list.push({ date: p.trade_date, close: money(p.close_price), text: p.close_price });
    byCode.set(p.stock_code, list);
  }
  for (const list of byCode.values()) list.sort((a, b) => a.date.localeCompare(b.date));
  return byCode;
}

/** The close with the latest date <= `date`, or undefined. */
export function latest<T extends { date: string }>(list: T[] | undefined, date: string): T | undefined {
  let found: T | undefined;
  for (const c of list ?? []) if (c.date <= date) found = c;
  return found;
}

const round2 = (f: Fraction) => f.toRoundedNumber(2);
const round4 = (f: Fraction) => f.toRoundedNumber(4);
/** A close as stored, written with its exact digits (no trailing zeros). */
const closeNumber = (text: string | undefined) => (text === undefined ? null : Number(text));

export function referencePerformance(book: Book, customerId: string, query: PerformanceQueryInput, benchmarkCode = "VNINDEX") {
  const brokerCode = new Map(book.brokers.map((b) => [b.id, b.code]));
  const customer = book.customers.find((c) => c.id === customerId);
  const accounts = book.accounts.filter(
    (a: AccountRow) =>
      live(a) &&
      customer !== undefined &&
      live(customer) &&
      a.customer_id === customerId &&
      brokerCode.has(a.broker_id) &&
      (query.broker === undefined || brokerCode.get(a.broker_id)!.toUpperCase() === query.broker.toUpperCase()),
  );
  const accountIds = new Set(accounts.map((a) => a.id));
  const trades = book.transactions.filter((t) => accountIds.has(t.account_id) && servedTrade(t));
  const actions = book.corporate_actions.filter((c) => accountIds.has(c.account_id) && servedAction(c));
  const holdings = book.holdings.filter((h) => accountIds.has(h.account_id) && servedHolding(h));
  const closes = book.stock_prices.filter(servedClose);
  const byCode = closesByCode(closes);
  // The calendar is BENCHMARK_CODE's whatever the code compared with.
  const calendarCloses = byCode.get(benchmarkCode);
  const comparedCode = query.benchmark?.toUpperCase() ?? benchmarkCode;
  const benchmarkCloses = byCode.get(comparedCode);

  // Calendar: the benchmark's close dates, or every code's when it has none.
  const calendar = [...new Set((calendarCloses ?? closes).map((c) => ("trade_date" in c ? c.trade_date : c.date)))].sort();
  const ledgerDates = [...trades.map((t) => t.trade_date), ...actions.map((c) => c.ex_date)];
  const tradeDates = trades.map((t) => t.trade_date).sort();
  const lastCalendar = calendar[calendar.length - 1];
  const lastTrade = tradeDates[tradeDates.length - 1];
  const asOf = [lastCalendar, lastTrade]
    .filter((d): d is string => d !== undefined)
    .sort()
    .pop();
  const first = [...ledgerDates].sort()[0];
  const pointDates =
    first === undefined || asOf === undefined
      ? []
      : [...new Set([...calendar.filter((d) => d >= first), ...ledgerDates])].filter((d) => d <= asOf).sort();

  const range = query.from !== undefined ? null : ((query.range ?? "max") as string);
  const echo = { range, from: query.from ?? null, to: query.to ?? null };
  const mismatch = (state: State | undefined) => holdingsMismatch(state, holdings);

  if (pointDates.length === 0) {
    return {
      ...echo,
      interval: "day",
      start_date: null,
      end_date: null,
      as_of: null,
      clamped: false,
      start_value: 0,
      end_value: 0,
      invested: 0,
      withdrawn: 0,
      dividends: 0,
      net_invested: 0,
      pnl: 0,
      twr: 0,
      mwr: { rate: null, status: "no_period" },
      annualized: null,
      benchmark: { code: comparedCode, start_close: null, end_close: null, return: null },
      unpriced_value: 0,
      unpriced_positions: 0,
      dividends_receivable: 0,
      holdings_mismatch: mismatch(undefined),
      points: [],
    };
  }

  // The walk: events in that order (inWalkOrder), every point recomputed from the start.
  const events = inWalkOrder(trades, actions);
  const cashDividends = actions.filter((c) => c.type === "cash_dividend");

  const points: PointState[] = pointDates.map((date) => walkTo(date, events, cashDividends, byCode));
  const pointAt = (date: string) => latest(points, date); // the latest point <= date
  const mvAt = (date: string) => pointAt(date)?.mv ?? ZERO;
  const benchmarkAt = (date: string) => latest(benchmarkCloses, date);
  const receivable = (date: string) =>
    cashDividends
      .filter((c) => c.ex_date <= date && date < c.pay_date && c.ex_date <= asOf!)
      .reduce((s, c) => s.add(money(c.gross_amount).sub(money(c.tax))), ZERO);
  const common = { as_of: asOf!, holdings_mismatch: mismatch(points[points.length - 1]!.state) };

  const to = query.to ?? asOf!;
  const end = pointAt(to);
  const firstPoint = points[0]!.date;
  const dayBeforeFirst = addDays(firstPoint, -1);

  const empty = (date: string) => {
    const at = pointAt(date);
    const close = benchmarkAt(date);
    return {
      ...echo,
      interval: "day",
      start_date: date,
      end_date: date,
      ...common,
      clamped: false,
      start_value: round2(mvAt(date)),
      end_value: round2(mvAt(date)),
      invested: 0,
      withdrawn: 0,
      dividends: 0,
      net_invested: round2(mvAt(date)),
      pnl: 0,
      twr: 0,
      mwr: { rate: null, status: "no_period" },
      annualized: null,
      benchmark: {
        code: comparedCode,
        start_close: closeNumber(close?.text),
        end_close: closeNumber(close?.text),
        return: close ? 0 : null,
      },
      unpriced_value: round2(at?.unpricedValue ?? ZERO),
      unpriced_positions: at?.unpricedPositions ?? 0,
      dividends_receivable: round2(receivable(date)),
      points: [],
    };
  };
  if (!end) return order(empty(to));
  const e = end.date;

  let s: string;
  if (query.from !== undefined) s = addDays(query.from, -1);
  else if (range === "max") s = dayBeforeFirst;
  else if (range === "1d") {
    const before = points.filter((p) => p.date < e).pop();
    s = before ? before.date : addDays(e, -1);
  } else if (range === "1w") s = addDays(e, -7);
  else if (range === "ytd") s = `${String(Number(e.slice(0, 4)) - 1).padStart(4, "0")}-12-31`;
  else s = minusMonths(e, MONTHS[range!]!);
  let clamped = false;
  if (s < dayBeforeFirst && range !== "max") {
    s = dayBeforeFirst;
    clamped = true;
  }
  if (s >= e) return order(empty(e));

  const inRange = points.filter((p) => p.date > s && p.date <= e);
  const startValue = mvAt(s);
  const benchmarkStart = range === "max" || clamped ? benchmarkAt(firstPoint) : benchmarkAt(s);
  const benchmarkReturn = (date: string) => {
    const endClose = benchmarkAt(date);
    return benchmarkStart && endClose ? endClose.close.div(benchmarkStart.close).sub(ONE) : null;
  };

  // Day returns over the customer's points (d' the point before d, MV 0 before the first).
  const dayFactor = new Map<string, Fraction>();
  for (const [i, p] of points.entries()) {
    const before = i === 0 ? ZERO : points[i - 1]!.mv;
    const denominator = before.add(p.inflow);
    const r = denominator.sign() === 0 ? ZERO : p.mv.add(p.sells).add(p.dividends).div(denominator).sub(ONE);
    dayFactor.set(p.date, ONE.add(r));
  }

  /** Every figure of (s, date]. */
  const over = (date: string) => {
    const upTo = inRange.filter((p) => p.date <= date);
    const invested = upTo.reduce((a, p) => a.add(p.inflow), ZERO);
    const withdrawn = upTo.reduce((a, p) => a.add(p.sells), ZERO);
    const dividends = upTo.reduce((a, p) => a.add(p.dividends), ZERO);
    const netInvested = startValue.add(invested).sub(withdrawn).sub(dividends);
    const value = mvAt(date);
    const growth = upTo.reduce((a, p) => a.mul(dayFactor.get(p.date)!), ONE);
    return { invested, withdrawn, dividends, netInvested, value, pnl: value.sub(netInvested), twr: growth.sub(ONE) };
  };

  const days = daysBetween(s, e);
  const interval = query.interval ?? (days <= 400 ? "day" : days <= 1461 ? "week" : "month");
  const bucket = (d: string) => (interval === "day" ? d : interval === "week" ? String(mondayOf(d)) : d.slice(0, 7));
  const chartDates = inRange.map((p) => p.date).filter((d, i, all) => i === all.length - 1 || bucket(all[i + 1]!) !== bucket(d));

  const total = over(e);
  const mwr = moneyWeighted(s, e, startValue, end.mv, inRange);
  const twrGrowth = ONE.add(total.twr);
  const benchmarkEnd = benchmarkAt(e);
  const totalBenchmark = benchmarkReturn(e);

  return order({
    ...echo,
    interval,
    start_date: s,
    end_date: e,
    ...common,
    clamped,
    start_value: round2(startValue),
    end_value: round2(total.value),
    invested: round2(total.invested),
    withdrawn: round2(total.withdrawn),
    dividends: round2(total.dividends),
    net_invested: round2(total.netInvested),
    pnl: round2(total.pnl),
    twr: round4(total.twr),
    mwr: { rate: mwr.rate === null ? null : Number(mwr.rate), status: mwr.status },
    annualized:
      days >= 365
        ? {
            twr: twrGrowth.sign() > 0 ? Number(annualize(twrGrowth, days)) : null,
            mwr: mwr.annualized === null ? null : Number(mwr.annualized),
          }
        : null,
    benchmark: {
      code: comparedCode,
      start_close: closeNumber(benchmarkStart?.text),
      end_close: closeNumber(benchmarkEnd?.text),
      return: totalBenchmark === null ? null : round4(totalBenchmark),
    },
    unpriced_value: round2(end.unpricedValue),
    unpriced_positions: end.unpricedPositions,
    dividends_receivable: round2(receivable(e)),
    points: [
      {
        date: s,
        value: round2(startValue),
        net_invested: round2(startValue),
        pnl: 0,
        twr: 0,
        benchmark: benchmarkStart ? 0 : null,
      },
      ...chartDates.map((date) => {
        const o = over(date);
        const b = benchmarkReturn(date);
        return {
          date,
          value: round2(o.value),
          net_invested: round2(o.netInvested),
          pnl: round2(o.pnl),
          twr: round4(o.twr),
          benchmark: b === null ? null : round4(b),
        };
      }),
    ],
  });
}

/** The ledger replayed up to and including `date`: positions, MV(date) and the flows dated `date`. */
function walkTo(
  date: string,
  events: Event[],
  cashDividends: CorporateActionRow[],
  byCode: Map<string, { date: string; close: Fraction }[]>,
): PointState {
  const state: State = new Map();
  let inflow = ZERO;
  let sells = ZERO;
  for (const ev of events) {
    if (ev.date > date) break;
    const account = ev.rank === 0 ? ev.credit.account_id : ev.trade.account_id;
    const code = ev.rank === 0 ? ev.credit.stock_code : ev.trade.stock_code;
    const k = key(account, code);
    const p = state.get(k) ?? { code, shares: 0n, cost: ZERO };
    state.set(k, p);
    if (ev.rank === 0) {
      p.shares += BigInt(ev.credit.quantity); // shares, no cost
    } else if (ev.rank === 1) {
      const t = ev.trade;
      const paid = money(t.total_value).add(money(t.fee)).add(money(t.personal_tax));
      p.shares += BigInt(t.quantity);
      p.cost = p.cost.add(paid);
      if (ev.date === date) inflow = inflow.add(paid);
    } else {
      const t = ev.trade;
      const q = BigInt(t.quantity);
      const m = q < p.shares ? q : p.shares;
      if (m > 0n) {
        const net = money(t.total_value).sub(money(t.fee)).sub(money(t.personal_tax));
        if (ev.date === date) sells = sells.add(net.mul(new Fraction(m, q)));
        p.cost = p.cost.sub(p.cost.mul(new Fraction(m, p.shares)));
        p.shares -= m;
      }
    }
  }
  const dividends = cashDividends
    .filter((c) => c.ex_date === date)
    .reduce((s, c) => s.add(money(c.gross_amount).sub(money(c.tax))), ZERO);
  let mv = ZERO;
  let unpricedValue = ZERO;
  let unpricedPositions = 0;
  for (const p of state.values()) {
    if (p.shares === 0n) continue;
    const close = latest(byCode.get(p.code), date);
    if (close) mv = mv.add(close.close.mul(new Fraction(p.shares)));
    else {
      mv = mv.add(p.cost);
      unpricedValue = unpricedValue.add(p.cost);
      unpricedPositions++;
    }
  }
  return { date, mv, inflow, sells, dividends, unpricedValue, unpricedPositions, state };
}

/** The mwr and its annualized figure over (s, e] (docs/performance.md). */
function moneyWeighted(s: string, e: string, startValue: Fraction, endValue: Fraction, inRange: PointState[]) {
  const none = { rate: null, status: "no_period" as const, annualized: null };
  const flowDates = inRange.filter((p) => p.inflow.sign() !== 0 || p.sells.add(p.dividends).sign() !== 0).map((p) => p.date);
  const origin = startValue.sign() !== 0 ? s : flowDates[0];
  if (origin === undefined) return none;
  const T = daysBetween(origin, e);
  if (T === 0) return none;
  const byDay = new Map<number, Fraction>();
  const add = (date: string, cf: Fraction) => {
    const t = daysBetween(origin, date);
    byDay.set(t, (byDay.get(t) ?? ZERO).add(cf));
  };
  add(origin, ZERO.sub(startValue));
  for (const p of inRange) {
    if (p.date < origin) continue; // nothing flows before the first flow when MV(s) = 0
    add(p.date, p.sells.add(p.dividends).sub(p.inflow));
  }
  add(e, endValue);
  const answer = solveMwr({ T, byDay });
  if (answer.status === "no_root") return { rate: null, status: "no_root" as const, annualized: null };
  return {
    rate: answer.rate,
    status: "ok" as const,
    annualized: daysBetween(s, e) >= 365 ? annualizedMwr(answer.root, T) : null,
  };
}

/** Pairs (account, code) whose ledger shares at as_of differ from the served holdings' quantity. */
function holdingsMismatch(state: State | undefined, holdings: HoldingRow[]): number {
  const ledger = new Map<string, bigint>();
  for (const [k, p] of state ?? []) ledger.set(k, p.shares);
  const served = new Map<string, bigint>();
  for (const h of holdings) {
    const k = key(h.account_id, h.stock_code);
    served.set(k, (served.get(k) ?? 0n) + BigInt(h.quantity));
  }
  const pairs = new Set([...ledger.keys(), ...served.keys()]);
  return [...pairs].filter((k) => (ledger.get(k) ?? 0n) !== (served.get(k) ?? 0n)).length;
}

/** The fields in the order of the response schema, so a failure reads like the API's answer. */
function order<T extends Record<string, unknown>>(data: T) {
  const { range, from, to, interval, start_date, end_date, as_of, clamped, ...rest } = data;
  return { range, from, to, interval, start_date, end_date, as_of, clamped, ...rest };
}

/**
 * The parts of the consistency identity over `max` (no broker; docs/performance.md), each from
 * the ledger: the average-cost realized P&L (docs/corporate-actions.md), the open positions' MV - C at as_of, and the net of the
 * cash dividends with ex_date <= as_of. Their sum is what `pnl` must be, exactly.
 */
export function identityParts(book: Book, customerId: string, benchmarkCode = "VNINDEX") {
  const answer = referencePerformance(book, customerId, {}, benchmarkCode);
  const asOf = answer.as_of as string | null;
  const accountIds = new Set(
    book.accounts
      .filter((a) => live(a) && a.customer_id === customerId && book.brokers.some((b) => b.id === a.broker_id))
      .map((a) => a.id),
  );
  const trades = book.transactions.filter(
    (t) => accountIds.has(t.account_id) && servedTrade(t) && asOf !== null && t.trade_date <= asOf,
  );
  const actions = book.corporate_actions.filter(
    (c) => accountIds.has(c.account_id) && servedAction(c) && asOf !== null && c.ex_date <= asOf,
  );
  const events = inWalkOrder(trades, actions);
  let realized = ZERO;
  const positions = new Map<string, Position & { code: string }>();
  for (const ev of events) {
    const t = ev.rank === 0 ? undefined : ev.trade;
    const code = ev.rank === 0 ? ev.credit.stock_code : ev.trade.stock_code;
    const k = key(ev.rank === 0 ? ev.credit.account_id : ev.trade.account_id, code);
    const p = positions.get(k) ?? { code, shares: 0n, cost: ZERO };
    positions.set(k, p);
    if (ev.rank === 0) p.shares += BigInt(ev.credit.quantity);
    else if (ev.rank === 1) {
      p.shares += BigInt(t!.quantity);
      p.cost = p.cost.add(money(t!.total_value)).add(money(t!.fee)).add(money(t!.personal_tax));
    } else {
      const q = BigInt(t!.quantity);
      const m = q < p.shares ? q : p.shares;
      if (m === 0n) continue;
      const out = p.cost.mul(new Fraction(m, p.shares));
      const net = money(t!.total_value).sub(money(t!.fee)).sub(money(t!.personal_tax));
      realized = realized.add(net.mul(new Fraction(m, q))).sub(out);
      p.cost = p.cost.sub(out);
      p.shares -= m;
    }
  }
  const byCode = closesByCode(book.stock_prices.filter(servedClose));
  let open = ZERO;
  for (const p of positions.values()) {
    if (p.shares === 0n) continue;
    const close = asOf === null ? undefined : latest(byCode.get(p.code), asOf);
    // Unpriced: valued at C, so MV - C = 0.
    if (close) open = open.add(close.close.mul(new Fraction(p.shares)).sub(p.cost));
  }
  const dividends = actions
    .filter((c) => c.type === "cash_dividend")
    .reduce((s, c) => s.add(money(c.gross_amount).sub(money(c.tax))), ZERO);
  return { realized, open, dividends, pnl: realized.add(open).add(dividends), positions };
}
