/**
 * The reference for what moved the portfolio (docs/performance.md, "Per stock" and "The worst
 * fall"): the rules read literally, from the source's rows alone, beside ./reference.ts (which gives the
 * period's bounds). Every point replays the ledger from its start, in exact fractions, per stock
 * code; every DD is computed and the largest taken; rounding once at the end. Slow and obvious,
 * written apart from src/domain.
 */
import type { Book } from "../support/book";
import { Fraction, money } from "../domain/fraction";
import {
  type PerformanceQueryInput,
  closesByCode,
  inWalkOrder,
  latest,
  live,
  referencePerformance,
  servedAction,
  servedClose,
  servedTrade,
} from "./reference";

const ZERO = new Fraction(0n);
const ONE = new Fraction(1n);

/** One code at one point: shares and MV_k after the events dated <= d, and the flows dated d. */
interface CodeAt {
  shares: bigint;
  mv: Fraction;
  inflow: Fraction;
  sells: Fraction;
  dividends: Fraction;
  event: boolean;
}

const nothing = (): CodeAt => ({ shares: 0n, mv: ZERO, inflow: ZERO, sells: ZERO, dividends: ZERO, event: false });

/** The customer's served ledger (one broker's with `broker`), its closes and its point dates. */
function ledgerOf(book: Book, customerId: string, query: PerformanceQueryInput, calendarCode: string) {
  const brokerCode = new Map(book.brokers.map((b) => [b.id, b.code.toUpperCase()]));
  const customer = book.customers.find((c) => c.id === customerId && live(c));
  const accountIds = new Set(
    book.accounts
      .filter(
        (a) =>
          customer &&
          live(a) &&
          a.customer_id === customerId &&
          brokerCode.has(a.broker_id) &&
          (query.broker === undefined || brokerCode.get(a.broker_id) === query.broker.toUpperCase()),
      )
      .map((a) => a.id),
  );
  const trades = book.transactions.filter((t) => accountIds.has(t.account_id) && servedTrade(t));
  const actions = book.corporate_actions.filter((c) => accountIds.has(c.account_id) && servedAction(c));
  const closes = book.stock_prices.filter(servedClose);
  const calendarCloses = closes.filter((p) => p.stock_code === calendarCode);
  const calendar = [...new Set((calendarCloses.length ? calendarCloses : closes).map((p) => p.trade_date))];
  const ledgerDates = [...trades.map((t) => t.trade_date), ...actions.map((c) => c.ex_date)];
  const asOf = [...calendar, ...trades.map((t) => t.trade_date)].sort().pop();
  const first = [...ledgerDates].sort()[0];
  const points =
    first === undefined || asOf === undefined
      ? []
      : [...new Set([...calendar.filter((d) => d >= first), ...ledgerDates])].filter((d) => d <= asOf).sort();
  return { trades, actions, byCode: closesByCode(closes), points };
}

type Ledger = ReturnType<typeof ledgerOf>;

/** Every code at `date`: the whole ledger replayed up to the end of that day, per account and code. */
function codesAt(ledger: Ledger, date: string): Map<string, CodeAt> {
  const codes = new Map<string, CodeAt>();
  const at = (code: string) => codes.get(code) ?? codes.set(code, nothing()).get(code)!;
  const positions = new Map<string, { code: string; shares: bigint; cost: Fraction }>();
  for (const ev of inWalkOrder(ledger.trades, ledger.actions)) {
    if (ev.date > date) break;
    const row = ev.rank === 0 ? ev.credit : ev.trade;
    const key = `${row.account_id} ${row.stock_code}`;
    const p = positions.get(key) ?? { code: row.stock_code, shares: 0n, cost: ZERO };
    positions.set(key, p);
    const today = ev.date === date;
    if (today) at(p.code).event = true;
    if (ev.rank === 0) p.shares += BigInt(ev.credit.quantity);
    else if (ev.rank === 1) {
      const paid = money(ev.trade.total_value).add(money(ev.trade.fee)).add(money(ev.trade.personal_tax));
      p.shares += BigInt(ev.trade.quantity);
      p.cost = p.cost.add(paid);
      if (today) at(p.code).inflow = at(p.code).inflow.add(paid);
    } else {
      const q = BigInt(ev.trade.quantity);
      const m = q < p.shares ? q : p.shares;
      if (m === 0n) continue;
      const net = money(ev.trade.total_value).sub(money(ev.trade.fee)).sub(money(ev.trade.personal_tax));
      if (today) at(p.code).sells = at(p.code).sells.add(net.mul(new Fraction(m, q)));
      p.cost = p.cost.sub(p.cost.mul(new Fraction(m, p.shares)));
      p.shares -= m;
    }
  }
  for (const c of ledger.actions) {
    if (c.type !== "cash_dividend" || c.ex_date !== date) continue;
    const code = at(c.stock_code);
    code.event = true;
    code.dividends = code.dividends.add(money(c.gross_amount).sub(money(c.tax)));
  }
  for (const p of positions.values()) {
    const code = at(p.code);
    code.shares += p.shares;
    if (p.shares === 0n) continue;
    const close = latest(ledger.byCode.get(p.code), date);
    code.mv = code.mv.add(close ? close.close.mul(new Fraction(p.shares)) : p.cost);
  }
  return codes;
}

const sum = (codes: Map<string, CodeAt>, of: (c: CodeAt) => Fraction) =>
  [...codes.values()].reduce((total, c) => total.add(of(c)), ZERO);
const outOf = (c: CodeAt) => c.sells.add(c.dividends);

/** 1 + r over one point: (MV(d) + Out(d)) / (MV(d') + In(d)), or 1 when the denominator is 0. */
const growth = (mv: Fraction, out: Fraction, before: Fraction, inflow: Fraction) => {
  const base = before.add(inflow);
  return base.sign() === 0 ? ONE : mv.add(out).div(base);
};

/** The figures of `drawdown` and `positions` for this query, as the endpoint must answer them. */
export function referenceMoved(book: Book, customerId: string, query: PerformanceQueryInput, calendarCode = "VNINDEX") {
  const { drawdown, positions } = movedExactly(book, customerId, query, calendarCode);
  return { drawdown, positions: positions.map(({ rounded }) => rounded) };
}

/** The same, each position with its exact parts beside its rounded figures. */
export function movedExactly(book: Book, customerId: string, query: PerformanceQueryInput, calendarCode = "VNINDEX") {
  const none = {
    drawdown: { max: 0, peak_date: null as string | null, trough_date: null as string | null },
    positions: [] as Exact[],
  };
  const answer = referencePerformance(book, customerId, query, calendarCode);
  const ledger = ledgerOf(book, customerId, query, calendarCode);
  const to = query.to ?? (answer.as_of as string | null);
  if (to === null || !ledger.points.some((d) => d <= to)) return none;
  const s = answer.start_date as string;
  const e = answer.end_date as string;
  const states = new Map(ledger.points.map((d) => [d, codesAt(ledger, d)]));
  const latestPoint = (date: string) => ledger.points.filter((d) => d <= date).pop();
  const endCodes = states.get(latestPoint(e)!)!;
  const endValue = sum(endCodes, (c) => c.mv);
  const weight = (mv: Fraction) => (endValue.sign() === 0 ? null : mv.div(endValue).toRoundedNumber(4));
  const round = (f: Fraction) => f.toRoundedNumber(2);

  if (answer.points.length === 0) {
    const positions = [...endCodes.entries()]
      .filter(([, c]) => c.shares > 0n)
      .map(([code, c]) => ({
        code,
        shares: c.shares,
        start: c.mv,
        end: c.mv,
        inflow: ZERO,
        sells: ZERO,
        dividends: ZERO,
        twr: ZERO,
      }));
    return { drawdown: none.drawdown, positions: ordered(positions, weight, round) };
  }

  const anchor = latestPoint(s);
  const range = ledger.points.filter((d) => d > s && d <= e);
  const before = (d: string) => {
    const i = ledger.points.indexOf(d);
    return i === 0 ? undefined : ledger.points[i - 1];
  };
  const mvOf = (date: string | undefined, code: string) =>
    date === undefined ? ZERO : (states.get(date)!.get(code)?.mv ?? ZERO);
  const allCodes = new Set([...states.values()].flatMap((m) => [...m.keys()]));
  const positions = [...allCodes]
    .filter(
      (code) =>
        range.some((d) => states.get(d)!.get(code)?.event) ||
        (anchor !== undefined && (states.get(anchor)!.get(code)?.shares ?? 0n) > 0n) ||
        (endCodes.get(code)?.shares ?? 0n) > 0n,
    )
    .map((code) => {
      const at = (d: string) => states.get(d)!.get(code) ?? nothing();
      const over = (of: (c: CodeAt) => Fraction) => range.reduce((total, d) => total.add(of(at(d))), ZERO);
      const twr = range
        .reduce((g, d) => g.mul(growth(at(d).mv, outOf(at(d)), mvOf(before(d), code), at(d).inflow)), ONE)
        .sub(ONE);
      const c = endCodes.get(code) ?? nothing();
      return {
        code,
        shares: c.shares,
        start: mvOf(anchor, code),
        end: c.mv,
        inflow: over((x) => x.inflow),
        sells: over((x) => x.sells),
        dividends: over((x) => x.dividends),
        twr,
      };
    });
  return { drawdown: drawdownOver(s, range, states, before), positions: ordered(positions, weight, round) };
}

type Row = {
  code: string;
  shares: bigint;
  start: Fraction;
  end: Fraction;
  inflow: Fraction;
  sells: Fraction;
  dividends: Fraction;
  twr: Fraction;
};

/** The exact pnl of one code's row. */
export const pnlOf = (r: Row) => r.end.sub(r.start.add(r.inflow).sub(r.sells).sub(r.dividends));

type Exact = { exact: Row & { pnl: Fraction }; rounded: ReturnType<typeof roundedOf> };

const roundedOf = (r: Row, weight: (mv: Fraction) => number | null, round: (f: Fraction) => number) => ({
  stock_code: r.code,
  shares: Number(r.shares),
  start_value: round(r.start),
  end_value: round(r.end),
  invested: round(r.inflow),
  withdrawn: round(r.sells),
  dividends: round(r.dividends),
  pnl: round(pnlOf(r)),
  twr: r.twr.toRoundedNumber(4),
  weight: weight(r.end),
});

function ordered(rows: Row[], weight: (mv: Fraction) => number | null, round: (f: Fraction) => number): Exact[] {
  const sorted = [...rows].sort((a, b) => b.end.compare(a.end) || pnlOf(b).compare(pnlOf(a)) || (a.code < b.code ? -1 : 1));
  return sorted.map((r) => ({ exact: { ...r, pnl: pnlOf(r) }, rounded: roundedOf(r, weight, round) }));
}

/** Every DD(d) of the period, the largest, its earliest point, and the latest peak before it. */
function drawdownOver(
  s: string,
  range: string[],
  states: Map<string, Map<string, CodeAt>>,
  before: (d: string) => string | undefined,
) {
  const levels: { date: string; level: Fraction }[] = [{ date: s, level: ONE }];
  for (const d of range) {
    const codes = states.get(d)!;
    const previous = before(d);
    const mvBefore = previous === undefined ? ZERO : sum(states.get(previous)!, (c) => c.mv);
    const factor = growth(
      sum(codes, (c) => c.mv),
      sum(codes, outOf),
      mvBefore,
      sum(codes, (c) => c.inflow),
    );
    levels.push({ date: d, level: levels[levels.length - 1]!.level.mul(factor) });
  }
  const peakAt = (i: number) => levels.slice(0, i + 1).reduce((p, l) => (l.level.compare(p) > 0 ? l.level : p), ONE);
  const dd = levels.map((l, i) => ONE.sub(l.level.div(peakAt(i))));
  const max = dd.reduce((m, x) => (x.compare(m) > 0 ? x : m), ZERO);
  if (max.sign() === 0) return { max: 0, peak_date: null, trough_date: null };
  const trough = dd.findIndex((x) => x.compare(max) === 0);
  const peak = levels.slice(0, trough + 1).findLastIndex((l) => l.level.compare(peakAt(trough)) === 0);
  return { max: max.toRoundedNumber(4), peak_date: levels[peak]!.date, trough_date: levels[trough]!.date };
}
