import type { Broker } from "./types";
import type { Db } from "../client";
import { brokers } from "../schema";

export function listBrokers(db: Db): Promise<Broker[]> {
  return db.select({ id: brokers.id, name: brokers.name, code: brokers.code }).from(brokers).orderBy(brokers.code, brokers.id);
}
