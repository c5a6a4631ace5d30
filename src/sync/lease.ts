/**
 * Mutual exclusion between runs (cron, queue and admin) with a lease row that expires, because
 * over HTTP there is no session to hold an advisory lock: if a run dies, its lease simply runs
 * out. The holder renews the lease inside every page's transaction, so a run that has lost it
 * (it stalled past the expiry and another run took over) cannot commit another page.
 */
import { getTableName } from "drizzle-orm";
import type { Sql } from "../db/client";
import { syncLease } from "../db/schema";
import { isoMicros } from "./cursor";
import { effect, int, manyRows, oneRow, text, type Statement } from "./database";

const LEASE = "sync";
export const LEASE_SECONDS = 120;
const TABLE = getTableName(syncLease);

/** Takes the lease if it is free or expired: true when this run got it. */
export function acquireLease(target: Sql, holder: string): Statement<boolean> {
  return {
    query: target.query(
      `insert into ${TABLE} (name, holder, expires_at) values ($1, $2, now() + make_interval(secs => $3))
       on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
       where ${TABLE}.expires_at < now()
       returning holder`,
      [LEASE, holder, LEASE_SECONDS],
    ),
    decode: (rows) => rows.length === 1,
  };
}

/**
 * Until when the lease is held, and the whole seconds until then (at least 1, for a
 * `Retry-After`); sent after acquireLease, so it sees the lease as that left it.
 */
export const leaseExpiry = (target: Sql) =>
  oneRow(
    target.query(
      `select ${isoMicros("expires_at")} as expires_at, greatest(1, ceil(extract(epoch from expires_at - now())))::int as retry_after
       from ${TABLE} where name = $1`,
      [LEASE],
    ),
    (r) => ({ expiresAt: text(r.expires_at), retryAfterSeconds: int(r.retry_after) }),
  );

/**
 * Extends this run's lease. When another run holds it, the holder is set to NULL, which the
 * column's NOT NULL constraint rejects: the error aborts the whole transaction this is part of.
 */
export function renewLease(target: Sql, holder: string): Statement<void> {
  return effect(
    target.query(
      `insert into ${TABLE} as l (name, holder, expires_at) values ($1, $2, now() + make_interval(secs => $3))
       on conflict (name) do update
       set expires_at = excluded.expires_at, holder = case when l.holder = excluded.holder then l.holder end`,
      [LEASE, holder, LEASE_SECONDS],
    ),
  );
}

export function releaseLease(target: Sql, holder: string): Statement<void> {
  return effect(target.query(`delete from ${TABLE} where name = $1 and holder = $2`, [LEASE, holder]));
}

/** The lease's holder and expiry, when a live run holds it. */
export const currentLease = (target: Sql) =>
  manyRows(
    target.query(
      `select holder, ${isoMicros("expires_at")} as expires_at from ${TABLE} where name = $1 and expires_at >= now()`,
      [LEASE],
    ),
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
