import { type Decimal, ZERO, divInt, fromInt, mulInt, parseDecimal } from "./decimal";
import type { TradeInput } from "./types";

/** A transaction with its money parsed once, so the sums and the matching share the work. */
export interface ParsedTrade {
  id: string;
  account_id: string;
  trade_date: string;
  /** trade_date as days since 1970-01-01, for ordering and holding days. */
  day: number;
  stock_code: string;
  type: "buy" | "sell";
  quantity: number;
  total_value: Decimal;
  fee: Decimal;
  personal_tax: Decimal;
}

/** A realized deal before rounding: one per sell that matched at least one share. */
export interface ExactDeal {
  sell_id: string;
  account_id: string;
  stock_code: string;
  sell_date: string;
  quantity_sold: number;
  realized_pnl: Decimal;
  /** Share-weighted mean of calendar days from each consumed lot's buy to the sell. */
  holding_days: Decimal;
}

export interface FifoResult {
  deals: ExactDeal[];
  unmatched_sell_quantity: number;
}

export function parseTrade(t: TradeInput): ParsedTrade {
  return {
    id: t.id,
    account_id: t.account_id,
    trade_date: t.trade_date,
    day: dayNumber(t.trade_date),
    stock_code: t.stock_code,
    type: t.type,
    quantity: t.quantity,
    total_value: parseDecimal(t.total_value),
    fee: parseDecimal(t.fee),
    personal_tax: parseDecimal(t.personal_tax),
  };
}

/**
 * FIFO matching per (account_id, stock_code), DESIGN §6: trades are grouped by that key, each
 * group sorted once, then walked with its open lots as a queue. O(n log n) overall.
 */
export function matchFifo(trades: readonly ParsedTrade[]): FifoResult {
  const deals: ExactDeal[] = [];
  let unmatched = 0;
  for (const holding of groupByHolding(trades)) {
    holding.sort(fifoOrder);
    unmatched += matchHolding(holding, deals);
  }
  return { deals, unmatched_sell_quantity: unmatched };
}

/** Nested maps rather than a joined string key: no string is built per trade. */
function groupByHolding(trades: readonly ParsedTrade[]): ParsedTrade[][] {
  const byAccount = new Map<string, Map<string, ParsedTrade[]>>();
  for (const trade of trades) {
    let byStock = byAccount.get(trade.account_id);
    if (!byStock) byAccount.set(trade.account_id, (byStock = new Map()));
    const holding = byStock.get(trade.stock_code);
    if (holding) holding.push(trade);
    else byStock.set(trade.stock_code, [trade]);
  }
  return [...byAccount.values()].flatMap((byStock) => [...byStock.values()]);
}

/** trade_date, then buys before sells on the same date, then id. */
function fifoOrder(a: ParsedTrade, b: ParsedTrade): number {
  if (a.day !== b.day) return a.day - b.day;
  if (a.type !== b.type) return a.type === "buy" ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Walks one holding's trades in FIFO order, appending its deals; returns the unmatched sold
 * shares. Open lots form a queue: an array plus the index of the oldest lot still open.
 */
function matchHolding(trades: readonly ParsedTrade[], deals: ExactDeal[]): number {
  const lots: { shares: number; cost: Decimal; day: number }[] = [];
  let head = 0;
  let unmatched = 0;
  for (const trade of trades) {
    // A row without shares (not in real data) takes no part: an empty lot would drag its cost
    // into the next deal, and a sell of nothing has nothing to match.
    if (trade.quantity <= 0) continue;

    if (trade.type === "buy") {
      lots.push({
        shares: trade.quantity,
        cost: trade.total_value + trade.fee + trade.personal_tax,
        day: trade.day,
      });
      continue;
    }

    let wanted = trade.quantity;
    let cost = ZERO;
    let shareDays = 0; // an exact integer: shares (< 2^31) times days (< 2^22) stays below 2^53
    while (wanted > 0) {
      const lot = lots[head];
      if (!lot) break;
      const take = Math.min(wanted, lot.shares);
      shareDays += take * (trade.day - lot.day);
      if (take === lot.shares) {
        cost += lot.cost;
        head++;
      } else {
        // Prorate from what is left and subtract, so a lot's parts always add up to its cost.
        const part = divInt(mulInt(lot.cost, take), lot.shares);
        cost += part;
        lot.cost -= part;
        lot.shares -= take;
      }
      wanted -= take;
    }

    const matched = trade.quantity - wanted;
    unmatched += wanted;
    if (matched === 0) continue;
    const net = trade.total_value - trade.fee - trade.personal_tax;
    const proceeds = matched === trade.quantity ? net : divInt(mulInt(net, matched), trade.quantity);
    deals.push({
      sell_id: trade.id,
      account_id: trade.account_id,
      stock_code: trade.stock_code,
      sell_date: trade.trade_date,
      quantity_sold: matched,
      realized_pnl: proceeds - cost,
      holding_days: divInt(fromInt(shareDays), matched),
    });
  }
  return unmatched;
}

/** Days since 1970-01-01 for a YYYY-MM-DD date; UTC on both ends, so no time zone shifts. */
function dayNumber(date: string): number {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const day = Number(date.slice(8, 10));
  return Date.UTC(year, month - 1, day) / 86_400_000;
}
