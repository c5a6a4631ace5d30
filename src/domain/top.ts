/**
 * The top lists: the five best wins and worst losses, ranked on exact pnl (docs/pnl.md:
 * ties by sell_date, then stock_code). Apart from the aggregate's sums
 * because a ranked list does not add: a holding's walk, a merge of partials (merge.ts) and an
 * adjusted merge all offer deals to it and rank them by the same order, stated here once.
 */

export const TOP_DEALS = 5;

/** A deal in a top list: exact pnl num/den (10^-4 đồng), exact days shareDays/matched. */
export interface TopDeal {
  num: bigint;
  den: bigint;
  /**
   * The pnl again when it is an integer below 2^53 in magnitude, so two such deals compare as
   * doubles, exactly; NaN otherwise. Only a candidate (aggregate.ts addDeal) may leave num/den
   * unset then.
   */
  small: number;
  shareDays: number;
  matched: number;
  sell_date: string;
  stock_code: string;
  sell_id: string;
}

/** Inserts a copy of `deal` into `top` (kept ranked, at most TOP_DEALS long) if it ranks there. */
export function offerTop(top: TopDeal[], deal: TopDeal, wins: boolean): void {
  let at = top.length;
  while (at > 0 && rank(deal, top[at - 1] as TopDeal, wins) < 0) at--;
  if (at === TOP_DEALS) return;
  top.splice(at, 0, Number.isNaN(deal.small) ? { ...deal } : { ...deal, num: BigInt(deal.small), den: 1n });
  if (top.length > TOP_DEALS) top.pop();
}

/**
 * Exact pnl (descending for wins, ascending for losses), then sell_date descending, then
 * stock_code (docs/pnl.md); the sell's id settles what is left (two
 * accounts), so input order never shows.
 */
export function rank(a: TopDeal, b: TopDeal, wins: boolean): number {
  const byPnl = comparePnl(a, b);
  if (byPnl !== 0) return wins ? -byPnl : byPnl;
  if (a.sell_date !== b.sell_date) return a.sell_date > b.sell_date ? -1 : 1;
  if (a.stock_code !== b.stock_code) return a.stock_code < b.stock_code ? -1 : 1;
  return a.sell_id < b.sell_id ? -1 : a.sell_id > b.sell_id ? 1 : 0;
}

/**
 * Exact comparison of two pnl: as doubles when both are exact integers there; otherwise
 * denominators are positive, so cross-multiplying keeps the order.
 */
function comparePnl(a: TopDeal, b: TopDeal): number {
  const aSmall = !Number.isNaN(a.small);
  const bSmall = !Number.isNaN(b.small);
  if (aSmall && bSmall) return a.small > b.small ? 1 : a.small < b.small ? -1 : 0;
  const aNum = aSmall ? BigInt(a.small) : a.num;
  const aDen = aSmall ? 1n : a.den;
  const bNum = bSmall ? BigInt(b.small) : b.num;
  const bDen = bSmall ? 1n : b.den;
  const diff = aDen === bDen ? aNum - bNum : aNum * bDen - bNum * aDen;
  return diff > 0n ? 1 : diff < 0n ? -1 : 0;
}
