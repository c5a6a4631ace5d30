/**
 * Stored metrics that cost what changed. The data statements leave two lists behind, in the
 * same transaction as the change (src/sync/apply.ts):
 *
 * 1. `holdings_pending`: holdings (account, stock code) whose trades changed, with the earliest
 *    date a change touched. Each one's partial aggregate is recomputed, or continued, from its
 *    own trades (src/sync/holdings.ts).
 * 2. `metrics_pending`: customers whose served data changed. Each one's stats and analytics
 *    come from the merge of its served holdings' partials: its stored merge adjusted by the
 *    changed holdings, or all of them added up in SQL (src/sync/customers.ts, with the merge
 *    rules' SQL form in src/sync/merge-sql.ts).
 *
 * Holdings go first, so a customer is merged from partials that are up to date. Each batch is
 * one read and one transaction that stores the results and takes the batch off its list, so a
 * run stopped by its budget leaves the rest for the next run; a batch that took all that was
 * waiting ends its list without another read (src/sync/read-ahead.ts).
 */
import type { Budget } from "./budget";
import { recomputeCustomers } from "./customers";
import type { SyncDatabase } from "./database";
import { recomputeHoldings } from "./holdings";

export interface MetricsOutcome {
  /** Holdings whose partials were recomputed. */
  holdings: number;
  /** Slugs of the customers whose metrics were stored: their cached responses are stale now. */
  slugs: string[];
  customers: number;
  /** True when nothing is left waiting. */
  done: boolean;
}

/** Works through the pending holdings, then the pending customers, while the budget lasts. */
export async function recomputePending(target: SyncDatabase, budget: Budget, holder: string): Promise<MetricsOutcome> {
  const outcome: MetricsOutcome = { holdings: 0, slugs: [], customers: 0, done: false };
  const holdingsDone = await recomputeHoldings(target, budget, holder, (holdings) => {
    outcome.holdings += holdings;
  });
  // Customers are merged from partials that are up to date.
  if (!holdingsDone) return outcome;
  outcome.done = await recomputeCustomers(target, budget, holder, (customers) => {
    outcome.customers += customers.length;
    for (const { slug } of customers) if (slug !== null) outcome.slugs.push(slug);
  });
  return outcome;
}
