/**
 * What makes a route an admin route, in one place, so the next one cannot get it half right:
 * the key check (src/auth.ts) and its brake on wrong keys and, for the document, the tag, the
 * apiKey security requirement, the statuses the check adds and the brake's `RateLimit-Policy`.
 * An admin route is declared with `adminRoute` instead of `createRoute`:
 *
 *   adminRoute({ method: "get", operationId: "getSyncStatus", path: "/sync/status",
 *     responses: { 200: jsonResponse("…", Body), ...errorResponses(503) } })
 */
import { createRoute, type OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import { requireAdminKey } from "../auth";
import type { AppEnv } from "../context";
import { braked, errorResponses } from "../schemas";

/** The name of the security scheme in the document's components. */
export const ADMIN_KEY_SCHEME = "adminKey";

/**
 * createRoute for an admin route: the key check ahead of everything else, and its statuses
 * (missing or wrong key; a failure before the handler; the brake's 429) in the document.
 */
export function adminRoute<
  P extends string,
  R extends Omit<RouteConfig, "path" | "middleware" | "tags" | "security"> & { path: P },
>(config: R) {
  return createRoute({
    ...config,
    tags: ["Admin"],
    security: [{ [ADMIN_KEY_SCHEME]: [] }],
    middleware: [requireAdminKey],
    responses: braked("admin_key", { ...config.responses, ...errorResponses(401, 500) }),
  } as R);
}

export function registerAdminKeyScheme(api: Pick<OpenAPIHono<AppEnv>, "openAPIRegistry">): void {
  api.openAPIRegistry.registerComponent("securitySchemes", ADMIN_KEY_SCHEME, {
    type: "apiKey",
    in: "header",
    name: "X-Admin-Key",
    description: "The server's ADMIN_API_KEY secret. Wrong keys are throttled per client (429 with Retry-After).",
  });
}
