/**
 * Path parameters. A value that cannot be a slug or an account id fails validation, and the
 * app's validation hook answers a failed *path* parameter with 404, like an unknown one
 * (DESIGN §5): a path that cannot name a resource names none, and the answer must not tell a
 * prober which of the two it hit.
 */
import { z } from "@hono/zod-openapi";

/**
 * We mint 26 lowercase base32 characters (src/domain/slug.ts); the pattern is wider so that
 * slugs made elsewhere in the back office still resolve, and narrow enough that nothing odd
 * reaches a query.
 */
const SLUG = /^[A-Za-z0-9_-]{1,64}$/;

const slug = z
  .string()
  .regex(SLUG)
  .openapi({
    param: { name: "slug", in: "path", description: "The customer's slug" },
    example: "k3v7q2m5x4a6b2c7d3e4f5g6h7",
  });

const accountId = z.guid().openapi({
  param: { name: "accountId", in: "path", description: "One of the customer's linked securities accounts" },
  example: "6f1c2a4e-8d3b-4c7a-9e21-5b0d7f3a9c10",
});

export const SlugParams = z.object({ slug });
export const AccountParams = z.object({ slug, accountId });
