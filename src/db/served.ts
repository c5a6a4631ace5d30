/**
 * What the API serves (DESIGN §7): a row is served when it and its owners are live (not
 * soft-deleted in the source, not set aside by the sync) and its references are in the target.
 * The target keeps everything else too (tombstones, held and rejected rows), so every read
 * and the stored metrics decide here, in one place, what a customer sees.
 *
 * Fragments are SQL text over a table alias, so the read queries (drizzle, src/db/queries) and
 * the sync's statements (plain SQL, src/sync) say the same thing.
 */

import { MIRRORED } from "./schema";

/** Neither soft-deleted in the source nor set aside by the sync. */
export const live = (alias: string) => `${alias}.${MIRRORED.deletedAt} is null and ${alias}.${MIRRORED.rejected} is null`;

/**
 * Account `a` is served as one of customer `customerId`'s: live, still the customer's, and at a
 * broker the target knows (a broker soft-deleted in the source still counts: it is a reference).
 */
export const servedAccount = (a: string, customerId: string) =>
  `${live(a)} and ${a}.customer_id = ${customerId} and exists (select from brokers where brokers.id = ${a}.broker_id)`;
