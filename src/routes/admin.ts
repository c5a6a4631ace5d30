/**
 * What makes a route an admin route, in one place, so the next one cannot get it half right:
 * the key check (src/auth.ts) and, for the document, the tag, the apiKey security requirement
 * and the statuses the check adds. An admin route spreads `adminOnly` into its createRoute
 * options and `ADMIN_ERRORS` into its error responses:
 *
 *   createRoute({ method: "get", operationId: "getSyncStatus", path: "/sync/status", ...adminOnly,
 *     responses: { 200: jsonResponse("…", Body), ...errorResponses(...ADMIN_ERRORS, 503) } })
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { requireAdminKey } from "../auth";
import type { AppEnv } from "../context";

/** The name of the security scheme in the document's components. */
export const ADMIN_KEY_SCHEME = "adminKey";

export const adminOnly = {
  tags: ["Admin"],
  security: [{ [ADMIN_KEY_SCHEME]: [] }],
  middleware: [requireAdminKey],
};

/** Missing or wrong key; too many wrong keys from this client; a failure before the handler. */
export const ADMIN_ERRORS = [401, 429, 500] as const;

export function registerAdminKeyScheme(api: Pick<OpenAPIHono<AppEnv>, "openAPIRegistry">): void {
  api.openAPIRegistry.registerComponent("securitySchemes", ADMIN_KEY_SCHEME, {
    type: "apiKey",
    in: "header",
    name: "X-Admin-Key",
    description: "The server's ADMIN_API_KEY secret. Wrong keys are throttled per client (429 with Retry-After).",
  });
}
