/**
 * What makes a route a lookup, in one place, as `adminRoute` (./admin.ts) makes an admin route:
 * a route that finds something by a value a stranger could guess (a customer's slug, an account
 * id under it) carries the 404 brake (src/rate-limit.ts `limitNotFound`), and its document says
 * so: the `RateLimit-Policy` every answer carries and the 429 past the limit. Declare such a
 * route with `lookupRoute` instead of `createRoute` (`slugRoute` does) and it cannot go
 * unbraked; test/security/enumeration.test.ts finds every route of the app with a `:slug` or
 * `:accountId` and fails on one without the brake.
 */
import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import { limitNotFound } from "../rate-limit";
import { braked } from "../schemas";

/** The brake, for a route that is not an OpenAPI route (the customer's page, src/routes/page.tsx). */
export const LOOKUP_BRAKE = [limitNotFound] as const;

/** createRoute, with the 404 brake ahead of the route's validation, cache and handler. */
export function lookupRoute<P extends string, R extends Omit<RouteConfig, "path" | "middleware"> & { path: P }>(config: R) {
  return createRoute({ ...config, middleware: [...LOOKUP_BRAKE], responses: braked("lookup", config.responses) } as R);
}
