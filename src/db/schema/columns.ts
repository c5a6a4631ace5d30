/** Column builders the target's tables share (src/db/schema/index.ts). */
import { timestamp } from "drizzle-orm/pg-core";

/** A point in time to the microsecond, as text: a JavaScript Date would keep milliseconds only. */
export const instant = (name: string) => timestamp(name, { withTimezone: true, precision: 6, mode: "string" });
