/**
 * Builds the Hono app: middleware, routes, the OpenAPI document and error handling.
 * src/index.ts wires it to the Worker's fetch and scheduled handlers.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./context";
import { AppError, onError } from "./errors";
import { config, corsFromConfig, database, requestId, securityHeaders } from "./middleware";
import { health } from "./routes/health";

export function createApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: rejectInvalidInput });

  app.use("*", requestId, securityHeaders, config, corsFromConfig);
  app.use("/api/*", database);

  const routes = app.route("/api", health);

  app.notFound(() => {
    throw new AppError(404);
  });
  app.onError(onError);
  return routes;
}

/** Every validation failure becomes one 400 envelope with the issues as `details`. */
function rejectInvalidInput(result: { success: boolean; error?: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } }) {
  if (!result.success) {
    const details = (result.error?.issues ?? []).map((issue) => ({
      path: issue.path.map(String).join("."),
      message: issue.message,
    }));
    throw new AppError(400, { details });
  }
}

export const app = createApp();
export type AppType = typeof app;
