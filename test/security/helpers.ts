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
