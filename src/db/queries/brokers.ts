import type { Broker } from "./types";
import type { Db } from "../client";
import { brokers } from "../schema";
import { live } from "../served";

/** Supported brokers: a broker soft-deleted in the source leaves this list, though accounts at it keep it embedded. */
export function listBrokers(db: Db): Promise<Broker[]> {
  return db
    .select({ id: brokers.id, name: brokers.name, code: brokers.code })
    .from(brokers)
    .where(live(brokers))
    .orderBy(brokers.code, brokers.id);
}
