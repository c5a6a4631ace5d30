/**
 * Continuing a holding's stored partial with its later trades and share credits: where its FIFO
 * queue stands in shares, which open lots a day's sells reach, and the partial after that day,
 * equal to the partial of the whole history. Apart from partial.ts (the stored form) because it
 * is the sync's daily path (src/sync/holdings.ts keeps the open lots as rows, holding_lots) with
 * its own bookkeeping of lot positions; docs/pnl.md says what it reads.
 */
import { addHolding, addTransactions, emptyAggregate } from "./aggregate";
import { noAverageCost } from "./average-cost";
import type { OpenLot, OpenLots } from "./lots";
import { type ParsedCredit, fifoOrder, inFifoOrder, parseCredit, parseTrade, sortedCredits } from "./parse";
import { type HoldingPartial, fromPartial, toPartial } from "./partial";
import type { CreditInput, TradeInput } from "./types";

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
