/**
 * The schema of an exact figure (src/domain/decimal.ts): a JSON `number` on the wire and in the
 * OpenAPI document, a Decimal in the code. Use `money(example)` for every money field, present
 * and future; it is a codec, so its two sides are both typed:
 *
 * - z.input, the wire: a number, as a client's JSON.parse gives it (and as the tests check
 *   response bodies); the document says `type: number`.
 * - z.output, the code: a Decimal, which the handlers put in the body and JSON.stringify writes
 *   with every digit. Hono's typed client reads it as a number (Decimal.toJSON's type).
 *
 * `decodeExact` (src/db/exact-json.ts) finds these fields through `isExactNumber` and reads
 * them from the database's JSON text without a trip through a double.
 */
import { z } from "@hono/zod-openapi";
import { Decimal } from "../domain/decimal";

const decimalValue = z.custom<Decimal>((v) => v instanceof Decimal, "must be a Decimal");

/** A figure written exactly: the document shows a plain `number`, as it did before figures were exact. */
export function exactNumber() {
  return z.codec(z.number(), decimalValue, {
    decode: (n) => Decimal.of(n),
    encode: (d) => d.toNumber(),
  });
}

/** An amount in đồng (up to 4 decimals as stored, 2 where computed): every money field uses it. */
export const money = (example: number) => exactNumber().openapi({ example });

/** True for a schema made by exactNumber() or money(), whatever was added to it since. */
export function isExactNumber(schema: z.ZodType): boolean {
  const def = schema._zod.def as { type: string; out?: unknown };
  return def.type === "pipe" && def.out === decimalValue;
}
