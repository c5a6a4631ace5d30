/**
 * Stored metrics that cost what changed (DESIGN §6, §7). The data statements leave two lists
 * behind, in the same transaction as the change (src/sync/apply.ts):
 *
 * 1. `holdings_pending`: holdings (account, stock code) whose trades changed. Each is recomputed
 *    alone from its own trades (one index range scan) into a partial aggregate, stored in
 *    `holding_metrics`. A customer's other holdings are not read.
 * 2. `metrics_pending`: customers whose served data changed. Each one's stats and analytics are
 *    the merge of the partials of its served accounts' holdings. The merge is exact except when
 *    a figure lies within its error bound of a rounding boundary; then, rarely, the customer's
 *    served trades are read and the domain computes the figure exactly from the deals.
 *
 * Holdings go first, so a customer is merged from partials that are up to date. Each batch is
 * one read and one transaction that stores the results and takes the batch off its list, so a
 * run stopped by its budget leaves the rest for the next run.
 */
import { getTableName } from "drizzle-orm";
import { customerMetrics, holdingMetrics, holdingsPending, metricsPending } from "../db/schema";
import { live, servedAccount } from "../db/served";
import {
  type CustomerMetrics,
  computeMetrics,
  type HoldingPartial,
  holdingPartial,
  mergePartials,
  PARTIAL_FORMAT,
  type TradeInput,
} from "../domain";
import type { Budget } from "./budget";
import { effect, manyRows, text, textOrNull, type SyncDatabase } from "./database";
import { renewLease } from "./lease";

export interface MetricsOutcome {
  /** Holdings whose partials were recomputed. */
  holdings: number;
  /** Slugs of the customers whose metrics were stored: their cached responses are stale now. */
  slugs: string[];
  customers: number;
  /** True when nothing is left waiting. */
  done: boolean;
}

const HOLDINGS_PENDING = getTableName(holdingsPending);
const METRICS_PENDING = getTableName(metricsPending);
const HOLDING_METRICS = getTableName(holdingMetrics);
const CUSTOMER_METRICS = getTableName(customerMetrics);

/** Holdings or customers per batch at most, however few trades they have. */
const MAX_BATCH = 500;

/** Trade columns as one compact JSON array per trade; money as exact decimal text. */
const TRADE_TUPLE = `json_build_array(t.id, t.account_id, t.trade_date, t.stock_code, t.type, t.quantity,
  t.total_value::text, t.fee::text, t.personal_tax::text)`;
type TradeTuple = [string, string, string, string, "buy" | "sell", number, string, string, string];

function parseTrades(json: string): TradeInput[] {
  return (JSON.parse(json) as TradeTuple[]).map(
    ([id, account_id, trade_date, stock_code, type, quantity, total_value, fee, personal_tax]) => ({
      id,
      account_id,
      trade_date,
      stock_code,
      type,
      quantity,
      total_value,
      fee,
      personal_tax,
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Holdings

interface PendingHolding {
  accountId: string;
  stockCode: string;
  trades: TradeInput[];
}

/**
 * The first pending holdings while their trades add up to at most `maxTrades` (the first one
 * always comes), each with its accepted, live trades. The account's own state does not matter
 * here: a holding's partial is the same whoever owns the account and whether it is served;
 * the merge decides which partials a customer sees.
 */
function loadHoldings(target: SyncDatabase, maxTrades: number) {
  const holdingTrades = `from transactions t where t.account_id = p.account_id and t.stock_code = p.stock_code and ${live("t")}`;
  return target.run([
    manyRows(
      target.sql.query(
        `with candidates as (
           select account_id, stock_code from ${HOLDINGS_PENDING} order by account_id, stock_code limit $1
         ),
         counted as (select p.*, (select count(*) ${holdingTrades}) as trades from candidates p),
         sized as (select *, sum(trades) over (order by account_id, stock_code) as upto from counted)
         select p.account_id, p.stock_code,
           (select coalesce(json_agg(${TRADE_TUPLE}), '[]')::text ${holdingTrades}) as trades
         from sized p where p.upto - p.trades < $2
         order by p.account_id, p.stock_code`,
        [MAX_BATCH, maxTrades],
      ),
      (r): PendingHolding => ({
        accountId: text(r.account_id),
        stockCode: text(r.stock_code),
        trades: parseTrades(text(r.trades)),
      }),
    ),
  ]);
}

async function storeHoldings(target: SyncDatabase, holder: string, batch: PendingHolding[]): Promise<void> {
  const computed = batch
    .filter((h) => h.trades.length > 0)
    .map((h) => ({ account_id: h.accountId, stock_code: h.stockCode, partial: holdingPartial(h.trades) }));
  const keys = JSON.stringify(batch.map((h) => ({ account_id: h.accountId, stock_code: h.stockCode })));
  await target.run([
    renewLease(target.sql, holder),
    // A holding left without trades has no partial.
    effect(
      target.sql.query(
        `delete from ${HOLDING_METRICS} m using jsonb_to_recordset($1::jsonb) as k(account_id uuid, stock_code text)
         where m.account_id = k.account_id and m.stock_code = k.stock_code`,
        [keys],
      ),
    ),
    effect(
      target.sql.query(
        `insert into ${HOLDING_METRICS} (account_id, stock_code, partial)
         select account_id, stock_code, partial from jsonb_to_recordset($1::jsonb) as r(account_id uuid, stock_code text, partial jsonb)`,
        [JSON.stringify(computed)],
      ),
    ),
    effect(
      target.sql.query(
        `delete from ${HOLDINGS_PENDING} p using jsonb_to_recordset($1::jsonb) as k(account_id uuid, stock_code text)
         where p.account_id = k.account_id and p.stock_code = k.stock_code`,
        [keys],
      ),
    ),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Customers

interface PendingCustomer {
  id: string;
  /** False when the target no longer has the customer at all. */
  present: boolean;
  /** Null while another customer holds its slug. */
  slug: string | null;
  partials: HoldingPartial[];
}

function loadCustomers(target: SyncDatabase) {
  return target.run([
    manyRows(
      target.sql.query(
        `select b.customer_id, c.id is not null as present, c.slug, (
           select coalesce(json_agg(h.partial), '[]')::text
           from ${HOLDING_METRICS} h join accounts a on a.id = h.account_id
           where ${servedAccount("a", "c.id")}
         ) as partials
         from (select customer_id from ${METRICS_PENDING} order by customer_id limit $1) b
         left join customers c on c.id = b.customer_id
         order by b.customer_id`,
        [MAX_BATCH],
      ),
      (r): PendingCustomer => ({
        id: text(r.customer_id),
        present: r.present === true,
        slug: textOrNull(r.slug),
        partials: JSON.parse(text(r.partials)) as HoldingPartial[],
      }),
    ),
  ]);
}

/** The exact path, for the customers whose merge cannot decide a figure: their served trades. */
async function loadServedTrades(target: SyncDatabase, customers: string[]): Promise<Map<string, TradeInput[]>> {
  if (!customers.length) return new Map();
  const [rows] = await target.run([
    manyRows(
      target.sql.query(
        `select c.id, (
           select coalesce(json_agg(${TRADE_TUPLE}), '[]')::text
           from transactions t join accounts a on a.id = t.account_id
           where t.customer_id = c.id and ${live("t")} and ${servedAccount("a", "c.id")}
         ) as trades
         from customers c where c.id = any($1::uuid[])`,
        [customers],
      ),
      (r) => [text(r.id), parseTrades(text(r.trades))] as const,
    ),
  ]);
  return new Map(rows);
}

/** A customer's metrics from its partials, or null when only its deals can decide. */
function merged(customer: PendingCustomer): CustomerMetrics | null {
  // A partial stored by an older engine cannot be merged; the exact path recomputes.
  if (customer.partials.some((p) => p.format !== PARTIAL_FORMAT)) return null;
  return mergePartials(customer.partials);
}

async function storeCustomers(target: SyncDatabase, holder: string, batch: PendingCustomer[]): Promise<void> {
  const present = batch.filter((c) => c.present);
  const metrics = new Map(present.map((c) => [c.id, merged(c)]));
  const undecided = [...metrics].filter(([, m]) => m === null).map(([id]) => id);
  for (const [id, trades] of await loadServedTrades(target, undecided)) metrics.set(id, computeMetrics(trades));
  const rows = [...metrics].map(([customer_id, m]) => ({ customer_id, ...m! }));
  const ids = batch.map((c) => c.id);
  await target.run([
    renewLease(target.sql, holder),
    // A customer the target no longer has loses its metrics; one merely deleted keeps them for a restore.
    effect(
      target.sql.query(`delete from ${CUSTOMER_METRICS} where customer_id = any($1::uuid[]) and customer_id <> all($2::uuid[])`, [
        ids,
        present.map((c) => c.id),
      ]),
    ),
    effect(
      target.sql.query(
        `insert into ${CUSTOMER_METRICS} (customer_id, stats, analytics, computed_at)
         select r.customer_id, r.stats, r.analytics, now()
         from json_to_recordset($1::json) as r(customer_id uuid, stats json, analytics json)
         on conflict (customer_id) do update
         set stats = excluded.stats, analytics = excluded.analytics, computed_at = excluded.computed_at`,
        [JSON.stringify(rows)],
      ),
    ),
    effect(target.sql.query(`delete from ${METRICS_PENDING} where customer_id = any($1::uuid[])`, [ids])),
  ]);
}

/** Works through the pending holdings, then the pending customers, while the budget lasts. */
export async function recomputePending(target: SyncDatabase, budget: Budget, holder: string): Promise<MetricsOutcome> {
  const outcome: MetricsOutcome = { holdings: 0, slugs: [], customers: 0, done: false };
  while (!budget.spent) {
    const batch = await budget.step(async () => {
      const [holdings] = await loadHoldings(target, budget.limits.metricsTrades);
      if (holdings.length) await storeHoldings(target, holder, holdings);
      return holdings;
    });
    outcome.holdings += batch.length;
    if (batch.length === 0) break;
  }
  while (!budget.spent) {
    const batch = await budget.step(async () => {
      const [customers] = await loadCustomers(target);
      if (customers.length) await storeCustomers(target, holder, customers);
      return customers;
    });
    outcome.customers += batch.length;
    for (const { slug } of batch) if (slug !== null) outcome.slugs.push(slug);
    if (batch.length === 0) {
      outcome.done = true;
      break;
    }
  }
  return outcome;
}
