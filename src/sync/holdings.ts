/**
 * The holdings step of the stored metrics (src/sync/metrics.ts): each holding in
 * `holdings_pending` is recomputed alone from its own trades (one index range scan) into a
 * partial aggregate, stored in `holding_metrics` with the latest trade date it covers and where
 * its FIFO queue stands, its open lots in `holding_lots`. When every change is dated after that
 * date, as a new trading day's are, it continues from there, and only the newer trades and the
 * open lots their sells reach are read; a change to an older trade (or one more trade on the
 * latest date) recomputes it whole. A customer's other holdings are not read.
 */
import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { corporateActions, holdingLots, holdingMetrics, holdingsPending, positionSteps, transactions } from "../db/schema";
import { live } from "../db/served";
import {
  type Continued,
  type CreditInput,
  continuePartial,
  type HoldingPartial,
  PARTIAL_FORMAT,
  type PlacedLot,
  type ResumePoint,
  type TradeInput,
} from "../domain";
import { bounded, type PositionState, positionSteps as walkPositionSteps } from "../domain/positions";
import { fraction } from "../domain/rational";
import type { Budget } from "./budget";
import type { Profile } from "./profile";
import { effect, int, manyRows, type Statement, text, textOrNull, type SyncDatabase } from "./database";
import { creditTuple, parseCredits, parseTrades, TRADE_TUPLE } from "../db/deals";
import { renewLease } from "./lease";
import { addMonths, monthsOf, replaceMonths, withoutMonths } from "./months";
import { replaceSteps, stepRow } from "./steps";
import { afterLast, type Batch, readAhead } from "./read-ahead";

/**
 * Holdings per batch at most, however few trades they have: one that continues comes with its
 * stored partial, parsed, continued and written back, so many of them weigh on the heap (the
 * measurements: `MAX_HOLDINGS` in docs/sync.md).
 */
const MAX_HOLDINGS = 200;

const t = alias(transactions, "t");
const c = alias(corporateActions, "c");

interface PendingHolding {
  accountId: string;
  stockCode: string;
  /**
   * Where its partial continues from, with the open lots the new trades' sells reach; null to
   * recompute it from all its trades.
   */
  resume: ResumePoint | null;
  /**
   * The open lots stored for it that were read: all of them without a resume point or with a
   * share credit, else those the new sells reach (its resume point's `head`). What lotChanges
   * compares the lots it opens with.
   */
  lots: PlacedLot[];
  /** Its accepted, live trades: those dated after the resume point, or all of them. */
  trades: TradeInput[];
  /** Its accepted, live share credits, dated after the resume point or all, like its trades. */
  credits: CreditInput[];
  /** With a resume point: where its position stood then (its last stored step), which its new steps continue. */
  position: PositionState | null;
  /**
   * Recomputed whole, its stored position steps dated before this are kept: no change it waits
   * for is dated before it, and a step is where the position stood at the end of its date. Null:
   * every step is laid again (or, with a resume point, those after it).
   */
  keptBefore: string | null;
}

/** A pending holding's key, the order its list is worked through in. */
type HoldingKey = [accountId: string, stockCode: string];

type HoldingRef = { accountId: string; stockCode: string };

/** The holdings' keys as the JSON the statements read with `jsonb_to_recordset(…) as k(account_id uuid, stock_code text)`. */
const keysJson = (holdings: readonly HoldingRef[]): string =>
  JSON.stringify(holdings.map((h) => ({ account_id: h.accountId, stock_code: h.stockCode })));

/**
 * The first pending holdings after `after` while the trades to read add up to at most
 * `maxTrades` (the first one always comes), each with its resume point (when every change it
 * waits for is dated after that point) and the open lots its new sells reach, and the trades to
 * read: those dated after the point, or all. The account's own state does not matter here: a
 * holding's partial is the same whoever owns the account and whether it is served; the merge
 * decides which partials a customer sees.
 */
async function loadHoldings(target: SyncDatabase, maxTrades: number, after: HoldingKey | null): Promise<Batch<PendingHolding>> {
  // One index range scan (transactions_holding_idx) after the resume point's date, or from the start.
  const holdingTrades = sql`from ${transactions} t where t.account_id = p.account_id and t.stock_code = p.stock_code
    and t.trade_date > coalesce(p.after, '-infinity'::date) and ${live(t)}`;
  // Its share credits the same way (corporate_actions_holding_idx).
  const holdingCredits = sql`from ${corporateActions} c where c.account_id = p.account_id and c.stock_code = p.stock_code
    and c.type = 'share_dividend' and c.ex_date > coalesce(p.after, '-infinity'::date) and ${live(c)}`;
  const [rows] = await target.run([
    manyRows(
      sql`with candidates as materialized (
           select p.account_id, p.stock_code, p.waiting, m.partial, m.consumed, m.opened,
             -- Its position steps continue from there too, so a holding without them is recomputed whole.
             case when (m.partial ->> 'format')::int = ${PARTIAL_FORMAT} and m.consumed is not null and p.from_date > m.through
               and exists (select from ${positionSteps} s where s.account_id = p.account_id and s.stock_code = p.stock_code
                 and s.date <= m.through)
               then m.through end as after,
             -- Recomputed whole from a known date, the steps before it stand (PendingHolding.keptBefore):
             -- a day's edit of an old trade relays the steps from its date, not the holding's every one.
             case when p.from_date is not null and exists (select from ${positionSteps} s
                 where s.account_id = p.account_id and s.stock_code = p.stock_code and s.date < p.from_date)
               then p.from_date end as kept_before
           -- One more than the batch is counted (not read) to tell whether any are left.
           from (
             select *, count(*) over () as waiting from (
               select * from ${holdingsPending}
               where ${after?.[0] ?? null}::uuid is null or (account_id, stock_code) > (${after?.[0] ?? null}::uuid, ${after?.[1] ?? null}::text)
               order by account_id, stock_code limit ${MAX_HOLDINGS + 1}
             ) w order by account_id, stock_code limit ${MAX_HOLDINGS}
           ) p
           left join ${holdingMetrics} m using (account_id, stock_code)
         ),
         -- The trades to read and the shares they sell, in one scan.
         counted as (
           select p.*, n.trades, n.sold, exists (select ${holdingCredits}) as credited from candidates p, lateral (
             select count(*) as trades, coalesce(sum(t.quantity) filter (where t.type = 'sell' and t.quantity > 0), 0) as sold
             ${holdingTrades}
           ) n
         ),
         sized as (
           select *, sum(trades) over (order by account_id, stock_code) as upto, count(*) over () as candidates from counted
         )
         select p.account_id, p.stock_code, p.candidates::int as candidates, p.waiting::int as waiting, p.after::text as after,
           case when p.after is null then p.kept_before::text end as kept_before,
           case when p.after is not null then p.partial::text end as partial,
           -- Share counts pass 2^31 but not 2^53: a double carries them exactly, where bigint comes as text.
           p.consumed::float8 as consumed, p.opened::float8 as opened,
           -- The open lots from the head up to where the new sells can reach (lotsReached); all of
           -- them when a share credit spreads over them, or when the holding is recomputed whole
           -- (to be compared with the lots it opens, lotChanges).
           (select coalesce(json_agg(json_build_object('at', l.at, 'lot', l.lot) order by l.at), '[]')::text
             from ${holdingLots} l where l.account_id = p.account_id and l.stock_code = p.stock_code
               and (p.after is null or p.credited or l.at < p.consumed + p.sold)
           ) as lots,
           case when p.after is not null then (
             select json_build_object('shares', s.shares, 'num', s.cost_num::text, 'den', s.cost_den::text, 'inexact', s.cost_inexact)::text
             from ${positionSteps} s where s.account_id = p.account_id and s.stock_code = p.stock_code and s.date <= p.after
             order by s.date desc limit 1
           ) end as position,
           (select coalesce(json_agg(${TRADE_TUPLE}), '[]')::text ${holdingTrades}) as trades,
           (select coalesce(json_agg(${creditTuple("c")}), '[]')::text ${holdingCredits}) as credits
         from sized p where p.upto - p.trades < ${maxTrades}
         order by p.account_id, p.stock_code`,
      (r) => {
        const lots = JSON.parse(text(r.lots)) as PlacedLot[];
        return {
          candidates: int(r.candidates),
          waiting: int(r.waiting),
          holding: {
            accountId: text(r.account_id),
            stockCode: text(r.stock_code),
            resume:
              r.after === null
                ? null
                : {
                    through: text(r.after),
                    partial: JSON.parse(text(r.partial)) as HoldingPartial,
                    position: { consumed: int(r.consumed), opened: int(r.opened) },
                    head: lots,
                  },
            lots,
            trades: parseTrades(text(r.trades)),
            credits: parseCredits(text(r.credits)),
            position: r.position === null ? null : storedPosition(text(r.position)),
            keptBefore: textOrNull(r.kept_before),
          },
        };
      },
    ),
  ]);
  const { candidates = 0, waiting = 0 } = rows[0] ?? {};
  return { items: rows.map((r) => r.holding), more: rows.length < candidates || waiting > MAX_HOLDINGS };
}

/** A stored step's position (a C stored before C was bounded may be any fraction, and is bounded here). */
function storedPosition(json: string): PositionState {
  const { shares, num, den, inexact } = JSON.parse(json) as { shares: number; num: string; den: string; inexact: number };
  return { shares, ...bounded(fraction(BigInt(num), BigInt(den)), inexact) };
}

/**
 * How a holding's stored lots change. Continued, the lots ending where its head stands now
 * (`upto`) are closed and the lots its new buys opened are added. Recomputed whole, or its lots
 * laid out again by a share credit, only the lots that differ from those stored go and come: a
 * day's fee edit of an old trade rewrites the one open lot it touched, or none, not every open
 * lot of the holding; when most of them differ, all go by one range and all come. Left without
 * trades, it keeps none.
 */
function lotChanges(h: PendingHolding, point: Continued | null): { upto: number; gone: number[]; added: PlacedLot[] } {
  if (!point) return { upto: Number.MAX_SAFE_INTEGER, gone: [], added: [] };
  if (h.resume && !point.relaid) return { upto: point.position.consumed, gone: [], added: point.opened };
  const stored = new Map(h.lots.map((l) => [l.at, JSON.stringify(l.lot)]));
  const same = (l: PlacedLot) => stored.get(l.at) === JSON.stringify(l.lot);
  const kept = new Set(point.opened.filter(same).map((l) => l.at));
  const gone = [...stored.keys()].filter((at) => !kept.has(at));
  // Most of them changed (a share credit changes every lot's shares): one range goes, all come.
  if (gone.length > kept.size) return { upto: Number.MAX_SAFE_INTEGER, gone: [], added: point.opened };
  return { upto: 0, gone, added: point.opened.filter((l) => !same(l)) };
}

/** Each holding's new position steps, as the statement below reads them: those it lays again. */
function stepsOf(batch: PendingHolding[]) {
  return batch.flatMap((h) =>
    walkPositionSteps(h.resume ? h.position : null, h.trades, h.credits)
      .filter((step) => h.keptBefore === null || step.date >= h.keptBefore)
      .map((step) => stepRow(h.accountId, h.stockCode, step)),
  );
}

/**
 * Stores each holding's new partial and position, drops the lots its queue no longer holds (all
 * of them when it was recomputed whole) and adds the lots its trades opened.
 */
async function storeHoldings(target: SyncDatabase, holder: string, batch: PendingHolding[], profile: Profile): Promise<void> {
  const [points, newSteps] = profile.timeSync("holdings", "compute", () => [
    batch.map((h) => ({ holding: h, point: continuePartial(h.resume, h.trades, h.credits) })),
    stepsOf(batch),
  ]);
  const lots = points.map(({ holding: h, point }) => ({ holding: h, ...lotChanges(h, point) }));
  // A holding left without trades has no partial, no months and no lots.
  const computed = points.flatMap(({ holding: h, point }) =>
    point
      ? [
          {
            account_id: h.accountId,
            stock_code: h.stockCode,
            partial: withoutMonths(point.partial),
            through: point.through,
            ...point.position,
          },
        ]
      : [],
  );
  // Continued from a partial stored without its months, a holding's months are what its new
  // trades and deals add; recomputed whole (or left without trades), its months are replaced.
  const whole = points.filter(({ holding: h, point }) => h.resume === null || point === null);
  const continued = points.filter(({ holding: h, point }) => h.resume !== null && point !== null);
  const monthsOfAll = (of: typeof points) =>
    of.flatMap(({ holding: h, point }) => (point ? monthsOf(h.accountId, h.stockCode, point.partial) : []));
  const closed = lots.flatMap(({ holding: h, upto }) =>
    upto > 0 ? [{ account_id: h.accountId, stock_code: h.stockCode, upto }] : [],
  );
  const gone = lots.flatMap(({ holding: h, gone }) =>
    gone.map((at) => ({ account_id: h.accountId, stock_code: h.stockCode, at })),
  );
  // One entry per holding, its lots as [at, lot] pairs: a holding recomputed whole can open thousands.
  const opened = lots.flatMap(({ holding: h, added }) =>
    added.length ? [{ account_id: h.accountId, stock_code: h.stockCode, lots: added.map((l) => [l.at, l.lot]) }] : [],
  );
  const keys = keysJson(batch);
  // Steps after the resume point are laid again (a share credit may have stepped past it); recomputed
  // whole, those from the date it was kept before, or all of them.
  const relaid = batch.map((h) => ({ ...h, after: h.resume?.through ?? null, from: h.keptBefore }));
  await profile.time("holdings", "write", () =>
    target.run([
      renewLease(holder),
      effect(
        sql`delete from ${holdingMetrics} m using jsonb_to_recordset(${keys}::jsonb) as k(account_id uuid, stock_code text)
         where m.account_id = k.account_id and m.stock_code = k.stock_code`,
      ),
      effect(
        sql`insert into ${holdingMetrics} (account_id, stock_code, partial, through, consumed, opened)
         select account_id, stock_code, partial, through, consumed, opened
         from json_to_recordset(${JSON.stringify(computed)}::json) as r(account_id uuid, stock_code text, partial jsonb, through date, consumed bigint, opened bigint)`,
      ),
      effect(
        // "l.at < k.upto" bounds the index range scan to the lots at the head.
        sql`delete from ${holdingLots} l using json_to_recordset(${JSON.stringify(closed)}::json) as k(account_id uuid, stock_code text, upto bigint)
         where l.account_id = k.account_id and l.stock_code = k.stock_code
           and l.at < k.upto and l.at + (l.lot ->> 0)::bigint <= k.upto`,
      ),
      effect(
        sql`delete from ${holdingLots} l using json_to_recordset(${JSON.stringify(gone)}::json) as k(account_id uuid, stock_code text, at bigint)
         where l.account_id = k.account_id and l.stock_code = k.stock_code and l.at = k.at`,
      ),
      effect(
        sql`insert into ${holdingLots} (account_id, stock_code, at, lot)
         select r.account_id, r.stock_code, (l ->> 0)::bigint, l -> 1
         from json_to_recordset(${JSON.stringify(opened)}::json) as r(account_id uuid, stock_code text, lots json), json_array_elements(r.lots) l`,
      ),
      ...replaceSteps(relaid, newSteps),
      ...replaceMonths(
        whole.map((p) => p.holding),
        monthsOfAll(whole),
      ),
      addMonths(monthsOfAll(continued)),
      takeOffPending(batch),
    ]),
  );
}

/**
 * Takes these holdings off the pending list, found key by key and deleted by row: joined to the
 * batch on statistics taken while the list was empty, the whole list was hashed every batch
 * (~20 ms a batch of 200 with 30,000 waiting: "holdings_pending taken off by row" in
 * docs/sync.md).
 */
export function takeOffPending(holdings: readonly HoldingRef[]): Statement<void> {
  const keys = keysJson(holdings);
  return effect(
    sql`delete from ${holdingsPending} p where p.ctid = any(array(
      select x.ctid from jsonb_to_recordset(${keys}::jsonb) as k(account_id uuid, stock_code text)
      cross join lateral (select x.ctid from ${holdingsPending} x
        where x.account_id = k.account_id and x.stock_code = k.stock_code offset 0) x))`,
  );
}

/**
 * Works through the pending holdings, batch by batch while the budget lasts: true when none is
 * left. Each batch is one read and one transaction that stores it and takes it off the list.
 */
export function recomputeHoldings(
  target: SyncDatabase,
  budget: Budget,
  holder: string,
  stored: (holdings: number) => void,
): Promise<boolean> {
  return readAhead<Batch<PendingHolding>, HoldingKey | null>(budget, "holdings", null, {
    read: (after) => loadHoldings(target, budget.limits.metricsTrades, after),
    after: (batch) => afterLast(batch, (h): HoldingKey => [h.accountId, h.stockCode]),
    async store(batch) {
      if (batch.items.length) await storeHoldings(target, holder, batch.items, budget.profile);
      stored(batch.items.length);
    },
  });
}
