/** The security suites' starting point: one customer, in fresh target databases, and a client. */
import type { Env } from "../../src/env";
import { investorBook, writeTarget } from "../support/book";
import { freshDatabases } from "../support/databases";
import { Client } from "../support/worker";

/** The investor written straight into fresh target databases; `account` is one of theirs. */
export async function withCustomer(overrides: Partial<Env> = {}) {
  const dbs = await freshDatabases(overrides);
  const investor = investorBook();
  await writeTarget(dbs.target, investor.book);
  return { dbs, ...investor, account: investor.accounts.ssi, client: new Client(dbs.env) };
}

/**
 * Waits for the next minute when less than `needMs` is left of this one. The 404 and admin-key
 * limiters count in fixed one-minute windows aligned to the clock (Miniflare's as Cloudflare's),
 * so a burst that straddles a window's end starts over and never reaches the limit; a test that
 * counts up to the limit starts its burst clear of that end.
 */
export async function clearOfWindowEnd(needMs = 15_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
