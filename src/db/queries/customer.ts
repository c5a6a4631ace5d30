/**
 * Reads of one customer by slug, each a single statement: the slug lookup and the data travel
 * together, so an unknown slug is no row (404) rather than an empty answer. A slug that cannot
 * be one arrives as null (src/schemas/params.ts) and is bound like any other: `slug = NULL`
 * matches nothing, at the cost of an unknown slug.
 */
import { sql } from "drizzle-orm";
import { EMPTY_METRICS } from "../../domain/empty";
import type { CustomerMetrics, Stats } from "../../domain/types";
import type { Customer, Holding, Lookup, ServedStats, Valuation } from "./types";
import type { Db } from "../client";
import { customerMetrics, customers, staff } from "../schema";
import { live } from "../served";
import { customerJson, portfolioJson } from "./shapes";
import { valuationJson } from "./valuation";

/** A served customer by slug: live, and with its staff member in the target (DESIGN §7). */
const bySlug = (slug: Lookup) => sql`${customers.slug} = ${slug} and ${sql.raw(live(`"customers"`))}`;
const withStaff = sql`join ${staff} on ${staff.id} = ${customers.staffId}`;
const withMetrics = sql`left join ${customerMetrics} on ${customerMetrics.customerId} = ${customers.id}`;

export async function findCustomer(db: Db, slug: Lookup): Promise<Customer | undefined> {
  const { rows } = await db.execute<{ customer: Customer }>(sql`
    select ${customerJson} as customer
    from ${customers} ${withStaff}
    where ${bySlug(slug)}`);
  return rows[0]?.customer;
}

export async function findPortfolio(db: Db, slug: Lookup): Promise<Holding[] | undefined> {
  const { rows } = await db.execute<{ portfolio: Holding[] }>(sql`
    select ${portfolioJson} as portfolio
    from ${customers} ${withStaff}
    where ${bySlug(slug)}`);
  return rows[0]?.portfolio;
}

/**
 * One of the customer's stored metrics. The sync computes and stores them; a customer it has
 * not reached yet reads as one without trades.
 */
async function findStoredMetric<K extends keyof CustomerMetrics>(
  db: Db,
  slug: Lookup,
  metric: K,
): Promise<CustomerMetrics[K] | undefined> {
  const { rows } = await db.execute<{ value: CustomerMetrics[K] | null }>(sql`
    select ${customerMetrics[metric]} as value
    from ${customers} ${withStaff} ${withMetrics}
    where ${bySlug(slug)}`);
  const row = rows[0];
  return row && (row.value ?? EMPTY_METRICS[metric]);
}

export const findAnalytics = (db: Db, slug: Lookup) => findStoredMetric(db, slug, "analytics");

/** The stored stats beside the valuation, as the statement returns them. */
const withValuation = (stats: Stats | null, valuation: Valuation): ServedStats => ({
  ...(stats ?? EMPTY_METRICS.stats),
  valuation,
});

export async function findStats(db: Db, slug: Lookup): Promise<ServedStats | undefined> {
  const { rows } = await db.execute<{ stats: Stats | null; valuation: Valuation }>(sql`
    select ${customerMetrics.stats} as stats, ${valuationJson} as valuation
    from ${customers} ${withStaff} ${withMetrics}
    where ${bySlug(slug)}`);
  const row = rows[0];
  return row && withValuation(row.stats, row.valuation);
}

export interface Aggregate extends Omit<CustomerMetrics, "stats"> {
  customer: Customer;
  portfolio: Holding[];
  stats: ServedStats;
}

type AggregateRow = Pick<Aggregate, "customer" | "portfolio"> & {
  [K in keyof CustomerMetrics]: CustomerMetrics[K] | null;
} & { valuation: Valuation };

export async function findAggregate(db: Db, slug: Lookup): Promise<Aggregate | undefined> {
  return aggregateOf((await aggregateQuery(db, slug)).rows);
}

/**
 * The aggregate's statement, not yet sent, and how its rows read: the customer page sends it in
 * one batch with a history page (src/db/queries/customer-page.ts).
 */
export function aggregateQuery(db: Db, slug: Lookup) {
  return db.execute<AggregateRow>(sql`
    select ${customerJson} as customer, ${portfolioJson} as portfolio,
      ${customerMetrics.stats} as stats, ${customerMetrics.analytics} as analytics, ${valuationJson} as valuation
    from ${customers} ${withStaff} ${withMetrics}
    where ${bySlug(slug)}`);
}

export function aggregateOf(rows: readonly AggregateRow[]): Aggregate | undefined {
  const row = rows[0];
  if (!row) return undefined;
  return {
    customer: row.customer,
    portfolio: row.portfolio,
    stats: withValuation(row.stats, row.valuation),
    analytics: row.analytics ?? EMPTY_METRICS.analytics,
  };
}
