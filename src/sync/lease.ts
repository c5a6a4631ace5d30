/**
 * Mutual exclusion between runs (cron and admin) with a lease row that expires, because over
 * HTTP there is no session to hold an advisory lock: if a run dies, its lease simply runs out.
 * The holder renews the lease inside every page's transaction, so a run that has lost it (it
 * stalled past the expiry and another run took over) cannot commit another page.
 */
import type { Sql } from "../db/client";
import type { Query } from "./database";

const LEASE = "sync";
export const LEASE_SECONDS = 120;

/** Takes the lease if it is free or expired; returns a row only when this run got it. */
export function acquireLease(target: Sql, holder: string): Query {
  return target.query(
    `insert into sync_lease (name, holder, expires_at) values ($1, $2, now() + make_interval(secs => $3))
     on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
     where sync_lease.expires_at < now()
     returning holder`,
    [LEASE, holder, LEASE_SECONDS],
  );
}

/**
 * Extends this run's lease. When another run holds it, the holder is set to NULL, which the
 * column's NOT NULL constraint rejects: the error aborts the whole transaction this is part of.
 */
export function renewLease(target: Sql, holder: string): Query {
  return target.query(
    `insert into sync_lease as l (name, holder, expires_at) values ($1, $2, now() + make_interval(secs => $3))
     on conflict (name) do update
     set expires_at = excluded.expires_at, holder = case when l.holder = excluded.holder then l.holder end`,
    [LEASE, holder, LEASE_SECONDS],
  );
}

export function releaseLease(target: Sql, holder: string): Query {
  return target.query(`delete from sync_lease where name = $1 and holder = $2`, [LEASE, holder]);
}

/** True when a statement failed because renewLease found another holder. */
export function isLeaseLost(err: unknown): boolean {
  const e = err as { code?: string; table?: string; column?: string };
  return e?.code === "23502" && e.table === "sync_lease";
}
