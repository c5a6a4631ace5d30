/**
 * Per-holding partial aggregates (issue 12): the sync stores one per (account_id, stock_code)
 * as JSON, recomputes only the holdings whose trades changed, and merges a customer's partials
 * into its metrics. A partial's size does not grow with its trades, except the monthly maps.
 */
import {
  type Aggregate,
  type Counts,
  type FixedSum,
  type TopDeal,
  addHolding,
  addTransactions,
  emptyAggregate,
  fixedSum,
  mergeInto,
  offerTop,
  rank,
  scaledTotal,
  TOP_DEALS,
} from "./aggregate";
import { loadAverageCost, noAverageCost, type StoredAverageCost, storeAverageCost } from "./average-cost";
import {
  fifoOrder,
  inFifoOrder,
  type OpenLot,
  type OpenLots,
  type ParsedCredit,
  parseCredit,
  parseTrade,
  sortedCredits,
} from "./fifo";
import { type DividendSums, NO_DIVIDENDS } from "./dividends";
import { finish } from "./finish";
import type { CreditInput, CustomerMetrics, TradeInput } from "./types";
import { gcd } from "./units";

/**
 * Bumped whenever the meaning of a stored partial changes (SCALE, a field): a stored partial of
 * another format must be recomputed from its trades, never merged.
 */
export const PARTIAL_FORMAT = 3;

/**
 * The version of the rules behind the stored metrics (their fields and how each is computed).
 * Bumped whenever a stored figure changes meaning or a field is added: a target whose recorded
 * version is older (or, written before versions were recorded, has none) recomputes every
 * customer's stored metrics once by itself (src/sync/rules.ts).
 * 1: share credits, average cost, dividends, total_return. 2: the stored total_return is the
 * exact-enough part of total-return.ts (5 places), not a figure rounded to 2 (with
 * PARTIAL_FORMAT 3: the average-cost sum in parts that add up exactly, average-cost.ts).
 */
export const METRICS_RULES = 2;

/** A fixed-scale sum (10^-4 đồng or days, times SCALE): |exact - sum| < inexact. */
export interface PartialSum {
  sum: string;
  inexact: number;
}

export interface PartialDeal {
  /** Exact pnl in 10^-4 đồng: [numerator, denominator > 0], decimal strings. */
  pnl: [string, string];
  /** Exact holding days: [share-days, shares]. */
  days: [number, number];
  sell_date: string;
  stock_code: string;
  /** Settles ties left after sell_date and stock_code. */
  sell_id: string;
}

export interface HoldingPartial extends Counts {
  format: typeof PARTIAL_FORMAT;
  unmatched_sell_quantity: number;
  /** Exact sums in 10^-4 đồng, decimal strings. */
  buy_value: string;
  sell_value: string;
  buy_fee: string;
  sell_fee: string;
  tax: string;
  date_from: string | null;
  date_to: string | null;
  monthly_trade_counts: Record<string, number>;
  /** Deal pnl by month of the sell, fixed scale. */
  monthly_pnl: Record<string, PartialSum>;
  win_pnl: PartialSum;
  loss_pnl: PartialSum;
  win_days: PartialSum;
  loss_days: PartialSum;
  /** Realized P&L by average cost (DESIGN §6.1), fixed scale. */
  average_cost_pnl: PartialSum;
  /**
   * Where the holding's average cost stands (shares, cost), so a later day continues from it;
   * null in a customer's merge, where it means nothing.
   */
  average_cost: StoredAverageCost | null;
  /** The holding's best five wins and worst five losses, ranked. */
  top_wins: PartialDeal[];
  top_losses: PartialDeal[];
}

/**
 * How each field of a partial adds up over a customer's holdings, for a merge done outside this
 * module: the target adds the partials up in SQL (src/sync/merge-sql.ts), so only one partial per
 * customer, with every holding's top deals, travels to mergePartials. A field added to
 * HoldingPartial must say here how it merges, or this does not compile.
 *
 * - `format`: the same in every partial;
 * - `count`: a sum of JSON numbers; `amount`: a sum of decimal strings;
 * - `min`, `max`: of date strings, nulls ignored;
 * - `fixed`: a PartialSum, sums and inexact counts added;
 * - `counts by month`, `fixed by month`: the same per key of an object;
 * - `deals`: the lists put together (mergePartials ranks them and keeps the top five);
 * - `holding`: one holding's own state, null in a merge.
 */
export type MergeRule =
  | "format"
  | "count"
  | "amount"
  | "min"
  | "max"
  | "fixed"
  | "counts by month"
  | "fixed by month"
  | "deals"
  | "holding";

export const PARTIAL_MERGE = {
  format: "format",
  transactions: "count",
  deals: "count",
  wins: "count",
  losses: "count",
  unmatched_sell_quantity: "count",
  buy_value: "amount",
  sell_value: "amount",
  buy_fee: "amount",
  sell_fee: "amount",
  tax: "amount",
  date_from: "min",
  date_to: "max",
  monthly_trade_counts: "counts by month",
  monthly_pnl: "fixed by month",
  win_pnl: "fixed",
  loss_pnl: "fixed",
  win_days: "fixed",
  loss_days: "fixed",
  average_cost_pnl: "fixed",
  average_cost: "holding",
  top_wins: "deals",
  top_losses: "deals",
} as const satisfies Record<keyof HoldingPartial, MergeRule>;

/** The partial of ONE holding's trades and share credits, in any order. */
export function holdingPartial(trades: readonly TradeInput[], credits: readonly CreditInput[] = []): HoldingPartial {
  const agg = emptyAggregate();
  const parsed = trades.map(parseTrade);
  addTransactions(agg, parsed);
  agg.average = noAverageCost();
  addHolding(agg, parsed, undefined, undefined, { credits: credits.map(parseCredit), average: agg.average });
  return toPartial(agg);
}

/**
 * Where a holding's FIFO queue stands, in shares: each lot has its place in the holding's
 * stream of bought shares (`at`: the shares its earlier lots opened), so the target can keep
 * open lots as rows and a later day read only the lots its sells reach (lotsReached), whatever
 * the number of lots left open behind them.
 */
export interface LotsPosition {
  /** Shares taken from the holding's lots so far: where the FIFO head stands. */
  consumed: number;
  /** Shares its lots opened so far: where the next lot opens. */
  opened: number;
}

/** An open lot at its place in the holding's stream of bought shares. */
export interface PlacedLot {
  at: number;
  lot: OpenLot;
}

/** A holding as stored: the partial of its trades dated up to `through`, and where its queue stands. */
interface HoldingPoint {
  through: string;
  partial: HoldingPartial;
  position: LotsPosition;
}

/** Where a holding's partial continues from. */
export interface ResumePoint extends HoldingPoint {
  /**
   * Its open lots from the head on, in order: at least every one the new trades' sells reach
   * (those starting before `consumed + soldShares`), and any number after them.
   */
  head: PlacedLot[];
}

/** A holding after trades were added: its new point, and the lots those trades opened. */
export interface Continued extends HoldingPoint {
  /** The lots these trades opened that are still open; lots before them stay open unless `consumed` passed their end. */
  opened: PlacedLot[];
  /**
   * True when a share credit changed the open lots: then `opened` is every open lot, placed
   * again from the head, and replaces the lots stored before.
   */
  relaid: boolean;
}

/** The shares `trades` sell: how far past the FIFO head their matching can reach. */
export const soldShares = (trades: readonly TradeInput[]): number =>
  trades.reduce((n, t) => (t.type === "sell" && t.quantity > 0 ? n + t.quantity : n), 0);

/** True when `lot`, an open lot, is needed to continue from `position` with trades selling `sold` shares. */
export const lotsReached = (position: LotsPosition, sold: number) => (lot: PlacedLot) => lot.at < position.consumed + sold;

/**
 * The holding after `from` (null: nothing yet) and its trades and share credits dated after
 * `from.through` (with `from` null: all of them). Its partial equals holdingPartial over the
 * whole history; its `through` is the latest trade or credit date, so what a later day appends
 * continues from it, reading only that day. A credit spreads over every open lot, so with
 * credits `from.head` must hold every open lot (a credit dated before `through` needs the
 * holding recomputed from the start). Null when the holding has no trades at all.
 */
export function continuePartial(
  from: ResumePoint | null,
  trades: readonly TradeInput[],
  credits: readonly CreditInput[] = [],
): Continued | null {
  if (trades.length === 0 && (credits.length === 0 || !from)) {
    return from && from.partial.transactions > 0
      ? { through: from.through, partial: from.partial, position: from.position, opened: [], relaid: false }
      : null;
  }
  const parsed = trades.map(parseTrade);
  if (!inFifoOrder(parsed)) parsed.sort(fifoOrder);
  const parsedCredits = sortedCredits(credits.map(parseCredit));
  const firstTrade = parsed[0]?.trade_date;
  const firstCredit = parsedCredits[0]?.ex_date;
  const first = firstTrade === undefined || (firstCredit !== undefined && firstCredit < firstTrade) ? firstCredit : firstTrade;
  if (from && first !== undefined && first <= from.through) {
    throw new RangeError(`A trade or credit dated ${first} is already in the partial through ${from.through}`);
  }
  const { consumed, opened } = from?.position ?? { consumed: 0, opened: 0 };
  const head = from?.head ?? [];
  const sold = soldShares(trades);
  const last = head[head.length - 1];
  const given = last ? last.at + last.lot[0] : consumed;
  // The sells must not reach a lot that was not given: they would match the new buys instead.
  if (Math.min(consumed + sold, opened) > given) {
    throw new RangeError(`The lots given end before the ${sold} shares sold after ${consumed} of ${opened}`);
  }
  if (parsedCredits.length > 0 && given < opened) {
    throw new RangeError(`A share credit spreads over every open lot; the lots given end at ${given} of ${opened}`);
  }
  const agg = from ? fromPartial(from.partial) : emptyAggregate();
  agg.average ??= noAverageCost();
  const queue: OpenLots = { used: head.length ? consumed - (head[0] as PlacedLot).at : 0, lots: head.map((l) => l.lot) };
  addTransactions(agg, parsed);
  addHolding(agg, parsed, undefined, queue, { credits: parsedCredits, average: agg.average });
  const partial = toPartial(agg);
  const lastTrade = parsed[parsed.length - 1]?.trade_date ?? from?.through ?? "";
  const lastCredit = (parsedCredits[parsedCredits.length - 1] as ParsedCredit | undefined)?.ex_date ?? "";
  // Dates as text compare in order (Math.max would not take them).
  const through = [lastTrade, lastCredit].sort()[1] as string;

  // Each buy opens a lot at the end of the stream; each sold share takes one from the head,
  // unless none was left (an unmatched sell).
  const bought: { at: number; shares: number }[] = [];
  let end = opened;
  for (const t of parsed) {
    if (t.type === "buy" && t.quantity > 0) {
      bought.push({ at: end, shares: t.quantity });
      end += t.quantity;
    }
  }
  const unmatched = partial.unmatched_sell_quantity - (from?.partial.unmatched_sell_quantity ?? 0);
  const taken = consumed + sold - unmatched;
  if (parsedCredits.length > 0) {
    // The credits changed lots' shares, so the stream of shares is laid out again from the head.
    let at = taken - queue.used;
    const placed = queue.lots.map((lot) => {
      const p = { at, lot };
      at += lot[0];
      return p;
    });
    return { through, partial, position: { consumed: taken, opened: at }, opened: placed, relaid: true };
  }
  const now: LotsPosition = { consumed: taken, opened: end };
  // The buys still open are the queue's last lots, whose entries carry their exact cost and day.
  const open = bought.filter((b) => b.at + b.shares > now.consumed);
  const tail = queue.lots.slice(queue.lots.length - open.length);
  return {
    through,
    partial,
    position: now,
    opened: open.map((b, i) => ({ at: b.at, lot: tail[i] as OpenLot })),
    relaid: false,
  };
}

/**
 * A customer's metrics from its holdings' partials and its cash dividends' sums; equal to
 * computeMetrics over all their trades whenever it is not null. Null means a figure lies within
 * the fixed scale's error of a rounding boundary: only the deals can settle it, so the caller
 * runs computeMetrics.
 */
export function mergePartials(
  partials: readonly HoldingPartial[],
  dividends: DividendSums = NO_DIVIDENDS,
): CustomerMetrics | null {
  return finish(mergedAggregate(partials), undefined, dividends);
}

/**
 * The partials as one, each list of top deals ranked and cut to five: what a customer's merge
 * stores, so a change to one holding can adjust it (adjustMerge).
 */
export function combinePartials(partials: readonly HoldingPartial[]): HoldingPartial {
  return toPartial(mergedAggregate(partials));
}

function mergedAggregate(partials: readonly HoldingPartial[]): Aggregate {
  const agg = emptyAggregate();
  for (const p of partials) {
    if (p.format !== PARTIAL_FORMAT) throw new Error(`Partial of format ${String(p.format)}, expected ${PARTIAL_FORMAT}`);
    mergeInto(agg, fromPartial(p));
  }
  return agg;
}

/** A holding's partial before and after a change (null: it had none, or has none now). */
export type HoldingChange = readonly [before: HoldingPartial | null, after: HoldingPartial | null];

/**
 * A customer's merge (combinePartials) after some of its holdings changed, one change after
 * another: equal to combining its holdings' partials again, without reading the others. Sums
 * and counts move by the difference. What cannot be taken back that way comes out null, and
 * the caller merges all the holdings again: an earliest or latest date a holding alone may have
 * held and gave up, a top deal of the holding's that changed or left (another holding's deal
 * may be next in line), a month of deals whose pnl is left at exactly zero (another holding's
 * break-even deal or none at all), a partial of another format. A day's new trades only add
 * deals and dates later than the merge's, so they always adjust. A month whose entries are the
 * same before and after a change moves nothing, so a change may leave it out of both.
 */
export function adjustMerge(merged: HoldingPartial, changes: readonly HoldingChange[]): HoldingPartial | null {
  if ([merged, ...changes.flat()].some((p) => p !== null && p.format !== PARTIAL_FORMAT)) return null;
  const agg = fromPartial(merged);
  const aggregate = (p: HoldingPartial | null) => (p ? fromPartial(p) : emptyAggregate());
  for (const [before, after] of changes) if (!replaceIn(agg, aggregate(before), aggregate(after))) return null;
  return toPartial(agg);
}

/** Replaces `old` by `now` in the merge `c`; false when that needs the other holdings (adjustMerge). */
function replaceIn(c: Aggregate, old: Aggregate, now: Aggregate): boolean {
  for (const key of ["transactions", "deals", "wins", "losses", "unmatched"] as const) c[key] += now[key] - old[key];
  for (const key of ["buyValue", "sellValue", "buyFee", "sellFee", "tax"] as const) c[key] += now[key] - old[key];
  for (const key of ["winPnl", "lossPnl", "winDays", "lossDays", "averagePnl"] as const)
    c[key] = moved(c[key], old[key], now[key]);

  const from = extreme(c.from, old.from, now.from, (a, b) => a < b);
  const to = extreme(c.to, old.to, now.to, (a, b) => a > b);
  if (from === undefined || to === undefined) return false;
  c.from = from;
  c.to = to;

  for (const month of new Set([...old.monthTrades.keys(), ...now.monthTrades.keys()])) {
    const n = (c.monthTrades.get(month) ?? 0) - (old.monthTrades.get(month) ?? 0) + (now.monthTrades.get(month) ?? 0);
    if (n < 0) return false;
    if (n === 0) c.monthTrades.delete(month);
    else c.monthTrades.set(month, n);
  }
  for (const month of new Set([...old.monthPnl.keys(), ...now.monthPnl.keys()])) {
    const rest = moved(c.monthPnl.get(month) ?? fixedSum(), old.monthPnl.get(month) ?? fixedSum(), fixedSum());
    const added = now.monthPnl.get(month);
    if (added) c.monthPnl.set(month, moved(rest, fixedSum(), added));
    // The month keeps its entry while another holding has a deal in it: a sum left over says so.
    else if (rest.scaled !== 0n || rest.inexact !== 0) c.monthPnl.set(month, rest);
    else return false;
  }

  const wins = replaceTop(c.topWins, old.topWins, now.topWins, true);
  const losses = replaceTop(c.topLosses, old.topLosses, now.topLosses, false);
  if (!wins || !losses) return false;
  c.topWins = wins;
  c.topLosses = losses;
  return true;
}

/** `total` - `before` + `after`, all in the fixed scale, their inexact terms counted alike. */
function moved(total: FixedSum, before: FixedSum, after: FixedSum): FixedSum {
  return {
    whole: 0n,
    small: 0,
    scaled: scaledTotal(total) - scaledTotal(before) + scaledTotal(after),
    inexact: total.inexact - before.inexact + after.inexact,
  };
}

/**
 * The earliest (or latest, by `first`) date of a merge once a holding's went from `before` to
 * `after`; undefined when the holding may have held the merge's alone and gave it up.
 */
function extreme(
  merged: string | null,
  before: string | null,
  after: string | null,
  first: (a: string, b: string) => boolean,
): string | null | undefined {
  if (before !== null && before === merged && (after === null || first(before, after))) return undefined;
  return after !== null && (merged === null || first(after, merged)) ? after : merged;
}

/**
 * A merge's top deals once a holding's went from `before` to `after`, or null when that needs
 * the other holdings. A sell belongs to one holding, so its id says whose a deal is. Each of
 * the holding's deals in the merge must be in `after` as it was, or ranked below a full `after`
 * (the holding's own deals fill the places above it); a deal that changed or left would let
 * another holding's deal, which the merge no longer lists, move up.
 */
function replaceTop(merged: TopDeal[], before: TopDeal[], after: TopDeal[], wins: boolean): TopDeal[] | null {
  const own = new Set(before.map((d) => d.sell_id));
  const now = new Map(after.map((d) => [d.sell_id, d]));
  const last = after.length === TOP_DEALS ? after[TOP_DEALS - 1] : undefined;
  const top: TopDeal[] = [];
  for (const deal of merged) {
    const same = now.get(deal.sell_id);
    if (same) {
      if (rank(same, deal, wins) !== 0 || same.shareDays !== deal.shareDays || same.matched !== deal.matched) return null;
    } else if (own.has(deal.sell_id)) {
      if (!last || rank(last, deal, wins) >= 0) return null;
      continue;
    }
    top.push(deal);
  }
  for (const deal of after) if (!top.some((d) => d.sell_id === deal.sell_id)) offerTop(top, deal, wins);
  return top;
}

function toPartial(agg: Aggregate): HoldingPartial {
  const sum = (s: FixedSum): PartialSum => ({ sum: scaledTotal(s).toString(), inexact: s.inexact });
  const deal = (d: TopDeal): PartialDeal => {
    // Reduced, so one deal stores alike however its lots were split: a customer's adjusted merge
    // and the merge of every holding again then hold the same text (src/sync/customers.ts).
    const g = gcd(d.num < 0n ? -d.num : d.num, d.den);
    return {
      pnl: [(d.num / g).toString(), (d.den / g).toString()],
      days: [d.shareDays, d.matched],
      sell_date: d.sell_date,
      stock_code: d.stock_code,
      sell_id: d.sell_id,
    };
  };
  return {
    format: PARTIAL_FORMAT,
    transactions: agg.transactions,
    deals: agg.deals,
    wins: agg.wins,
    losses: agg.losses,
    unmatched_sell_quantity: agg.unmatched,
    buy_value: agg.buyValue.toString(),
    sell_value: agg.sellValue.toString(),
    buy_fee: agg.buyFee.toString(),
    sell_fee: agg.sellFee.toString(),
    tax: agg.tax.toString(),
    date_from: agg.from,
    date_to: agg.to,
    monthly_trade_counts: Object.fromEntries([...agg.monthTrades].sort(([a], [b]) => (a < b ? -1 : 1))),
    monthly_pnl: Object.fromEntries([...agg.monthPnl].sort(([a], [b]) => (a < b ? -1 : 1)).map(([m, s]) => [m, sum(s)])),
    win_pnl: sum(agg.winPnl),
    loss_pnl: sum(agg.lossPnl),
    win_days: sum(agg.winDays),
    loss_days: sum(agg.lossDays),
    average_cost_pnl: sum(agg.averagePnl),
    average_cost: agg.average ? storeAverageCost(agg.average) : null,
    top_wins: agg.topWins.map(deal),
    top_losses: agg.topLosses.map(deal),
  };
}

function fromPartial(p: HoldingPartial): Aggregate {
  const sum = (s: PartialSum): FixedSum => ({ whole: 0n, small: 0, scaled: BigInt(s.sum), inexact: s.inexact });
  const deal = (d: PartialDeal): TopDeal => {
    return {
      num: BigInt(d.pnl[0]),
      den: BigInt(d.pnl[1]),
      small: NaN, // compared as fractions: merging reads few deals
      shareDays: d.days[0],
      matched: d.days[1],
      sell_date: d.sell_date,
      stock_code: d.stock_code,
      sell_id: d.sell_id,
    };
  };
  return {
    ...emptyAggregate(),
    transactions: p.transactions,
    deals: p.deals,
    wins: p.wins,
    losses: p.losses,
    unmatched: p.unmatched_sell_quantity,
    buyValue: BigInt(p.buy_value),
    sellValue: BigInt(p.sell_value),
    buyFee: BigInt(p.buy_fee),
    sellFee: BigInt(p.sell_fee),
    tax: BigInt(p.tax),
    from: p.date_from,
    to: p.date_to,
    monthTrades: new Map(Object.entries(p.monthly_trade_counts)),
    monthPnl: new Map(Object.entries(p.monthly_pnl).map(([m, s]) => [m, sum(s)])),
    winPnl: sum(p.win_pnl),
    lossPnl: sum(p.loss_pnl),
    winDays: sum(p.win_days),
    lossDays: sum(p.loss_days),
    averagePnl: sum(p.average_cost_pnl),
    average: p.average_cost ? loadAverageCost(p.average_cost) : null,
    topWins: p.top_wins.map(deal),
    topLosses: p.top_losses.map(deal),
  };
}
