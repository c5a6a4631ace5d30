/**
 * FIFO matching of one holding, exact: each deal's pnl comes out as a fraction of 10^-4 đồng and
 * its holding days as share-days over shares, nothing divided or rounded (docs/pnl.md).
 * Only the sells' walk over the lots lives here, the hot path of every
 * metric: parsing and order are in parse.ts, the lots' storage and how a share credit spreads
 * over them in lots.ts, and what the deals add up to in aggregate.ts.
 */
import { type LotQueue, type OpenLots, loadLots, spreadCredit, storeLots } from "./lots";
import { type ParsedCredit, type ParsedTrade, costOf, netOf } from "./parse";

/**
 * Receives each deal. Its pnl, in 10^-4 đồng, comes one of two ways: when it is an integer
 * below 2^53 in magnitude (most deals of real books), as the exact double `pnl`, and then
 * pnlNum and pnlDen are 0n and 1n and mean nothing; otherwise `pnl` is NaN and the pnl is
 * pnlNum / pnlDen exactly (pnlDen > 0, not reduced; it divides first lot's shares x last lot's
 * shares x sell quantity). Holding days = shareDays / matched. A callback with plain values
 * rather than a deal object, so the common path allocates nothing per deal, not even a bigint.
 */
export type DealSink = (
  sell: ParsedTrade,
  matched: number,
  pnl: number,
  pnlNum: bigint,
  pnlDen: bigint,
  shareDays: number,
) => void;

/** 2^53: every integer of smaller magnitude is a double, and so is the exact result of +, -, *
 * or % on such integers whenever that result's magnitude is below it too. Rounding to nearest
 * is monotone, so a result whose true magnitude is 2^53 or more comes out 2^53 or more: a
 * computed magnitude below 2^53 proves the operation was exact. The number path below leans
 * on this after every step and moves to bigints the moment a check fails. */
const EXACT = 2 ** 53;

/**
 * Walks one holding's trades, already in fifoOrder, passing each deal to `sink`; returns the
 * sold shares left unmatched. Open lots are parallel arrays (no object per lot) used as a
 * queue from `head`; only the head lot can be partly used (`headUsed` shares). A lot keeps its
 * original shares and cost, so every part of it is cost * take / shares exactly and the parts
 * add up to its cost.
 *
 * Each sell's pnl is whole + num / den: integer parts go to `whole`, and each part that does
 * not divide adds its remainder over its denominator to num/den (at most three: the sell's
 * proceeds, the head lot opened by an earlier sell, and the lot this sell leaves open). This
 * runs in doubles while every value is provably exact (EXACT) and in bigints from the first
 * step that is not, or for a lot or sell whose money is too large for doubles (`big`).
 *
 * With `queue`, the walk starts from the lots it holds (trades before these, matched by an
 * earlier call) and leaves the open lots in it when it ends.
 *
 * `credits` (creditOrder) are the holding's share credits: each is spread over the lots open
 * after the trades dated before its ex_date (lots.ts spreadCredit).
 */
export function matchHolding(
  trades: readonly ParsedTrade[],
  sink: DealSink,
  queue?: OpenLots,
  credits: readonly ParsedCredit[] = [],
): number {
  const lots: LotQueue = loadLots(queue);
  let head = 0;
  let headUsed = queue?.used ?? 0;
  let unmatched = 0;
  let nextCredit = 0;

  for (const trade of trades) {
    while (nextCredit < credits.length && (credits[nextCredit] as ParsedCredit).day <= trade.day) {
      headUsed = spreadCredit(lots, head, headUsed, credits[nextCredit++] as ParsedCredit);
    }
    // A row without shares (not in real data) takes no part: an empty lot has no unit cost,
    // and a sell of nothing has nothing to match.
    if (trade.quantity <= 0) continue;
    if (trade.type === "buy") {
      openLot(lots, trade);
      continue;
    }
    const wanted = matchSell(lots, trade, head, headUsed);
    head = walkHead;
    headUsed = walkUsed;
    const matched = trade.quantity - wanted;
    unmatched += wanted;
    if (matched !== 0) settleSell(trade, matched, sink);
  }
  while (nextCredit < credits.length) headUsed = spreadCredit(lots, head, headUsed, credits[nextCredit++] as ParsedCredit);
  if (queue) storeLots(lots, head, headUsed, queue);
  return unmatched;
}

/** A buy opens a lot at the queue's end: its shares, its cost (a double, or a bigint when `big`), its day. */
function openLot(lots: LotQueue, trade: ParsedTrade): void {
  lots.shares.push(trade.quantity);
  if (trade.big) {
    lots.cost.push(-1);
    lots.bigCost.push(costOf(trade));
  } else {
    lots.cost.push(trade.total_value + trade.fee + trade.personal_tax);
    lots.bigCost.push(null);
  }
  lots.costDen.push(null);
  lots.day.push(trade.day);
}

/**
 * What matchSell leaves for matchHolding and settleSell: module state, like addShare's, so the
 * hot loop allocates nothing. Each is read before the sink is called.
 */
let walkHead = 0;
let walkUsed = 0;
let walkShareDays = 0;
/** The number path's pnl so far (whole + num / den), until `walkBig`; then the bigint path's. */
let walkBig = false;
let walkWhole = 0;
let walkNum = 0;
let walkDen = 1;
let wholeB = 0n;
let numB = 0n;
let denB = 1n;

/**
 * Matches one sell against the open lots from `head` (`headUsed` of it used), taking away their
 * cost; returns the shares left unmatched, with the new head in walkHead and walkUsed and the
 * pnl so far in the walk state.
 */
function matchSell(lots: LotQueue, trade: ParsedTrade, head: number, headUsed: number): number {
  // The arrays as locals: the loop below reads them directly.
  const { shares, cost, bigCost, costDen, day } = lots;
  let wanted = trade.quantity;
  let shareDays = 0; // shares (< 2^31) x days (< 2^22) < 2^53: an exact integer
  // The number path's state, then the bigint path's (wholeB, numB, denB) once `big` is set.
  let big = false;
  let whole = 0;
  let num = 0;
  let den = 1;
  while (wanted > 0 && head < shares.length) {
    const lotShares = shares[head] as number;
    const left = lotShares - headUsed;
    const take = Math.min(wanted, left);
    shareDays += take * (trade.day - (day[head] as number));
    const c = cost[head] as number;
    // The number path, while every value stays exact; a step it cannot take exactly is taken
    // in bigints, nothing of it applied. Costs are >= 0, so `whole` only falls here.
    if (!big && c >= 0 && addShare(whole, num, den, -c, take, lotShares)) {
      whole = sumWhole;
      num = sumNum;
      den = sumDen;
    } else {
      if (!big) {
        big = true;
        toBig(whole, num, den);
      }
      takeLotBig(bigCost[head] ?? BigInt(c), costDen[head] ?? null, take, lotShares);
    }
    wanted -= take;
    if (take === left) {
      head++;
      headUsed = 0;
    } else headUsed += take;
  }
  walkHead = head;
  walkUsed = headUsed;
  walkShareDays = shareDays;
  walkBig = big;
  walkWhole = whole;
  walkNum = num;
  walkDen = den;
  return wanted;
}

/** The number path's pnl moved to the bigint path's state. */
function toBig(whole: number, num: number, den: number): void {
  wholeB = BigInt(whole);
  numB = BigInt(num);
  denB = BigInt(den);
}

/** The bigint path's step for a lot: its cost's part take / lotShares (over lotDen, when set) taken away. */
function takeLotBig(lotCost: bigint, lotDen: bigint | null, take: number, lotShares: number): void {
  if (take === lotShares && lotDen === null) {
    wholeB -= lotCost;
    return;
  }
  const part = lotCost * BigInt(take);
  const q = lotDen === null ? BigInt(lotShares) : lotDen * BigInt(lotShares);
  const int = part / q;
  wholeB -= int;
  const rest = part - int * q;
  if (rest !== 0n) {
    numB = numB * q - rest * denB;
    denB *= q;
  }
}

/** Adds the matched part of the sell's proceeds to the walk's pnl and passes the deal to `sink`. */
function settleSell(trade: ParsedTrade, matched: number, sink: DealSink): void {
  const quantity = trade.quantity;
  // |net| < 2^52: three amounts below 10^15 each.
  if (
    !walkBig &&
    !trade.big &&
    addShare(walkWhole, walkNum, walkDen, trade.total_value - trade.fee - trade.personal_tax, matched, quantity)
  ) {
    if (sumDen === 1) sink(trade, matched, sumWhole, 0n, 1n, walkShareDays);
    else sink(trade, matched, NaN, BigInt(sumWhole) * BigInt(sumDen) + BigInt(sumNum), BigInt(sumDen), walkShareDays);
    return;
  }
  if (!walkBig) toBig(walkWhole, walkNum, walkDen);
  const net = netOf(trade);
  if (matched === quantity) {
    wholeB += net;
  } else {
    const part = net * BigInt(matched);
    const q = BigInt(quantity);
    const int = part / q;
    wholeB += int;
    const rest = part - int * q;
    if (rest !== 0n) {
      numB = numB * q + rest * denB;
      denB *= q;
    }
  }
  sink(trade, matched, NaN, denB === 1n ? wholeB + numB : wholeB * denB + numB, denB, walkShareDays);
}

/** What addShare leaves when it succeeds: module state, so the hot loop allocates nothing. */
let sumWhole = 0;
let sumNum = 0;
let sumDen = 1;

/**
 * The number path's one step: whole + num / den + amount * part / of (0 < part <= of, |amount|
 * and |whole| below 2^53, amount truncated toward zero like the bigint path), exactly in
 * doubles. True with the sum in sumWhole + sumNum / sumDen; false, with nothing changed, when a
 * value on the way could not be exact, and the step must be taken in bigints.
 */
function addShare(whole: number, num: number, den: number, amount: number, part: number, of: number): boolean {
  sumNum = num;
  sumDen = den;
  if (part === of) {
    sumWhole = whole + amount;
    return Math.abs(sumWhole) < EXACT;
  }
  // |amount| = a * of + r, so |amount| * part / of = a * part + r * part / of;
  // a * part <= |amount| < 2^53 and r < of, so only r * part needs checking.
  const sign = amount < 0 ? -1 : 1;
  const abs = amount < 0 ? -amount : amount;
  const r = abs % of;
  const rp = r * part;
  const rest = rp % of;
  sumWhole = whole + sign * (((abs - r) / of) * part + (rp - rest) / of);
  if (!(rp < EXACT && Math.abs(sumWhole) < EXACT)) return false;
  if (rest === 0) return true;
  sumNum = num * of + sign * rest * den;
  sumDen = den * of;
  return sumDen < EXACT && rest * den < EXACT && Math.abs(num * of) < EXACT && Math.abs(sumNum) < EXACT;
}
