/**
 * The shape every "one thing about one customer" read shares: `GET /{resource}/{slug}`, looked
 * up by the customer's slug, 404 when nobody has it, otherwise `{success: true, data}` served
 * through the customer's edge cache, behind the 404 brake (./lookup.ts). Each route names only
 * what is its own.
 */
import { OpenAPIHono, type z } from "@hono/zod-openapi";
import { cached, forCustomer, type Scope } from "../cache";
import type { AppEnv } from "../context";
import type { Db } from "../db/client";
import type { Lookup } from "../db/queries";
import { notFound } from "../errors";
import { SLUG_ERRORS, SlugParams, cachedResponses, errorResponses } from "../schemas";
import { lookupRoute } from "./lookup";

type Tag = "Customers" | "Portfolio" | "Metrics";

export interface SlugRoute<P extends string, R extends z.ZodObject<{ data: z.ZodType }>> {
  operationId: string;
  path: P;
  tag: Tag;
  summary: string;
  description: string;
  /** What the 200 carries, in the words of its description. */
  answer: string;
  /** The 200's envelope. */
  response: R;
  /** Whose changes make the answer stale: the customer (default), and the closes for a valuation. */
  scope?: Scope;
  /** The envelope's `data`, or undefined when no customer has the slug. */
  find: (db: Db, slug: Lookup) => Promise<z.infer<R>["data"] | undefined>;
}

/** A router with the one cached slug route described by `spec`. */
export function slugRoute<P extends string, R extends z.ZodObject<{ data: z.ZodType }>>(spec: SlugRoute<P, R>) {
  const route = lookupRoute({
    method: "get",
    operationId: spec.operationId,
    path: spec.path,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    request: { params: SlugParams },
    responses: {
      ...cachedResponses(spec.answer, spec.response),
      ...errorResponses(...SLUG_ERRORS),
    },
  });
  return new OpenAPIHono<AppEnv>().openapi(
    route,
    cached(spec.scope ?? forCustomer)(async (c) => {
      const data = await spec.find(c.get("db"), c.req.valid("param").slug);
      if (!data) throw notFound();
      return c.json({ success: true, data }, 200);
    }),
  );
}
