/**
 * Path parameters. A slug or account id names a resource or it does not, and the answer must
 * not tell a prober *why* it does not (docs/api.md): a value that cannot be a slug or an
 * account id (wrong characters, wrong length, no uuid) is not rejected here, it is looked up
 * as SQL NULL, which equals no row. So a malformed slug and an unknown well-formed one take the
 * same path: one bound, parameterised query that finds nothing, then the same 404 body, at the
 * same cost. Nothing malformed ever reaches SQL as a value; only NULL stands in for it.
 */
import { z } from "@hono/zod-openapi";
import { SERVABLE_SLUG, SERVABLE_SLUG_SQL, SLUG_MAX_LENGTH } from "../domain/slug";

/** A path parameter as the queries receive it: the value, or null when it names nothing. */
export type Lookup = string | null;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function slugLookup(value: string): Lookup {
  return SERVABLE_SLUG.test(value) ? value : null;
}

function accountIdLookup(value: string): Lookup {
  return value.length === 36 && UUID.test(value) ? value : null;
}

// The documented schema is what a valid value looks like; the transform decides what to look up.
const slug = z
  .string()
  .transform(slugLookup)
  .openapi({
    param: { name: "slug", in: "path", description: "The customer's slug" },
    pattern: SERVABLE_SLUG_SQL,
    maxLength: SLUG_MAX_LENGTH,
    example: "k3v7q2m5x4a6b2c7d3e4f5g6h7",
  });

const accountId = z
  .string()
  .transform(accountIdLookup)
  .openapi({
    param: { name: "accountId", in: "path", description: "One of the customer's linked securities accounts" },
    format: "uuid",
    maxLength: 36,
    example: "6f1c2a4e-8d3b-4c7a-9e21-5b0d7f3a9c10",
  });

export const SlugParams = z.object({ slug });
export const AccountParams = z.object({ slug, accountId });
