/**
 * Reads of one customer by slug, each a single statement: the slug lookup and the data travel
 * together, so an unknown slug is no row (404) rather than an empty answer. A slug that cannot
 * be one arrives as null (src/schemas/params.ts) and is bound like any other: `slug = NULL`
 * matches nothing, at the cost of an unknown slug.
 */
import { sql } from "drizzle-orm";
import { EMPTY_METRICS } from "../../domain/empty";
import type { CustomerMetrics, Stats } from "../../domain/types";
import { Analytics, PortfolioResponse, Stats as StatsSchema } from "../../schemas";
import type { Customer, Holding, Lookup, ServedStats } from "./types";
import type { Db } from "../client";
import { decodeExact, parseExact } from "../exact-json";
import { customerMetrics, customers, staff } from "../schema";
import { live } from "../served";
import { customerJson, portfolioJson } from "./shapes";
import { servedStats, valuationJson } from "./valuation";

/** A served customer by slug: live, and with its staff member in the target (docs/sync.md). */
const bySlug = (slug: Lookup) => sql`${customers.slug} = ${slug} and ${live(customers)}`;
const withStaff = sql`join ${staff} on ${staff.id} = ${customers.staffId}`;
const withMetrics = sql`left join ${customerMetrics} on ${customerMetrics.customerId} = ${customers.id}`;

export async function findCustomer(db: Db, slug: Lookup): Promise<Customer | undefined> {
  const { rows } = await db.execute<{ customer: Customer }>(sql`
    select ${customerJson} as customer
    from ${customers} ${withStaff}
    where ${bySlug(slug)}`);
  return rows[0]?.customer;
}

/** The holdings as the driver parsed them (money as text), with money as Decimals. */
const readPortfolio = (json: unknown): Holding[] => decodeExact(PortfolioResponse.shape.data, json);

/** The stored metrics as JSON text, which readMetric reads with every digit (null before the sync reached the customer). */
const metricText = (metric: keyof CustomerMetrics) => sql`${customerMetrics[metric]}::text`;
const METRIC_SCHEMAS = { stats: StatsSchema, analytics: Analytics } as const;
function readMetric<K extends keyof CustomerMetrics>(metric: K, text: string | null): CustomerMetrics[K] {
  return text === null ? EMPTY_METRICS[metric] : (parseExact(METRIC_SCHEMAS[metric], text) as CustomerMetrics[K]);
}

export async function findPortfolio(db: Db, slug: Lookup): Promise<Holding[] | undefined> {
  const { rows } = await db.execute<{ portfolio: unknown }>(sql`
    select ${portfolioJson} as portfolio
    from ${customers} ${withStaff}
    where ${bySlug(slug)}`);
  return rows[0] && readPortfolio(rows[0].portfolio);
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
  const { rows } = await db.execute<{ value: string | null }>(sql`
    select ${metricText(metric)} as value
    from ${customers} ${withStaff} ${withMetrics}
    where ${bySlug(slug)}`);
  const row = rows[0];
  return row && readMetric(metric, row.value);
}

export const findAnalytics = (db: Db, slug: Lookup) => findStoredMetric(db, slug, "analytics");

/** The stored stats beside the valuation read with them (its money as text, made Decimals there). */
const withValuation = (stats: Stats, valuation: unknown): ServedStats => servedStats(stats, valuation);

export async function findStats(db: Db, slug: Lookup): Promise<ServedStats | undefined> {
  const { rows } = await db.execute<{ stats: string | null; valuation: unknown }>(sql`
    select ${metricText("stats")} as stats, ${valuationJson} as valuation
    from ${customers} ${withStaff} ${withMetrics}
    where ${bySlug(slug)}`);
  const row = rows[0];
  return row && withValuation(readMetric("stats", row.stats), row.valuation);
}

export interface Aggregate extends Omit<CustomerMetrics, "stats"> {
  customer: Customer;
  portfolio: Holding[];
  stats: ServedStats;
}

type AggregateRow = {
  customer: Customer;
  portfolio: unknown;
  stats: string | null;
  analytics: string | null;
  valuation: unknown;
};

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
      ${metricText("stats")} as stats, ${metricText("analytics")} as analytics, ${valuationJson} as valuation
    from ${customers} ${withStaff} ${withMetrics}
    where ${bySlug(slug)}`);
}

export function aggregateOf(rows: readonly AggregateRow[]): Aggregate | undefined {
  const row = rows[0];
  if (!row) return undefined;
  return {
    customer: row.customer,
    portfolio: readPortfolio(row.portfolio),
    stats: withValuation(readMetric("stats", row.stats), row.valuation),
    analytics: readMetric("analytics", row.analytics),
  };
}
