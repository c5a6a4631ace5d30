/**
 * Mutual exclusion between runs (cron, queue and admin) with a lease row that expires, because
 * over HTTP there is no session to hold an advisory lock: if a run dies, its lease simply runs
 * out. The holder renews the lease inside every page's transaction, so a run that has lost it
 * (it stalled past the expiry and another run took over) cannot commit another page.
 */
import { getTableName, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { syncLease } from "../db/schema";
import { isoMicros } from "./cursor";
import { effect, int, manyRows, oneRow, text, type Statement } from "./database";

const LEASE = "sync";
export const LEASE_SECONDS = 120;
const TABLE = getTableName(syncLease);
const { name, holder: holderColumn, expiresAt } = syncLease;

/**
 * SQL: run `holder` holds the lease. Statements sent in the batch that takes it write only when
 * this is true, so a run that did not get the lease leaves no trace.
 */
export const holdsLease = (holder: SQLWrapper | string): SQL =>
  sql`exists (select from ${syncLease} where ${holderColumn} = ${holder})`;

/** SQL: run `holder` holds a lease that has not expired: the run is alive (src/sync/status.ts). */
export const holdsLiveLease = (holder: SQLWrapper): SQL =>
  sql`exists (select from ${syncLease} where ${holderColumn} = ${holder} and ${expiresAt} >= now())`;

/** Takes the lease if it is free or expired: true when this run got it. */
export function acquireLease(holder: string): Statement<boolean> {
  return {
    query: sql`insert into ${syncLease} (name, holder, expires_at) values (${LEASE}, ${holder}, now() + make_interval(secs => ${LEASE_SECONDS}))
       on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
       where ${expiresAt} < now()
       returning ${holderColumn}`,
    decode: (rows) => rows.length === 1,
  };
}

/**
 * Until when the lease is held, and the whole seconds until then (at least 1, for a
 * `Retry-After`); sent after acquireLease, so it sees the lease as that left it.
 */
export const leaseExpiry = () =>
  oneRow(
    sql`select ${isoMicros(expiresAt)} as expires_at, greatest(1, ceil(extract(epoch from ${expiresAt} - now())))::int as retry_after
       from ${syncLease} where ${name} = ${LEASE}`,
    (r) => ({ expiresAt: text(r.expires_at), retryAfterSeconds: int(r.retry_after) }),
  );

/**
 * Extends this run's lease. When another run holds it, the holder is set to NULL, which the
 * column's NOT NULL constraint rejects: the error aborts the whole transaction this is part of.
 */
export function renewLease(holder: string): Statement<void> {
  return effect(
    sql`insert into ${syncLease} as l (name, holder, expires_at) values (${LEASE}, ${holder}, now() + make_interval(secs => ${LEASE_SECONDS}))
       on conflict (name) do update
       set expires_at = excluded.expires_at, holder = case when l.holder = excluded.holder then l.holder end`,
  );
}

export function releaseLease(holder: string): Statement<void> {
  return effect(sql`delete from ${syncLease} where ${name} = ${LEASE} and ${holderColumn} = ${holder}`);
}

/** The lease's holder and expiry, when a live run holds it. */
export const currentLease = () =>
  manyRows(
    sql`select ${holderColumn} as holder, ${isoMicros(expiresAt)} as expires_at from ${syncLease}
       where ${name} = ${LEASE} and ${expiresAt} >= now()`,
    (r) => ({ holder: text(r.holder), expiresAt: text(r.expires_at) }),
  );

/** True when a statement failed because renewLease found another holder. */
export function isLeaseLost(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, table } = e as { code?: string; table?: string };
    if (code === "23502" && table === TABLE) return true;
  }
  return false;
}
