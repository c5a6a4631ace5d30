/**
 * Builds the Hono app: middleware, routes, the OpenAPI document and error handling.
 * src/index.ts wires it to the Worker's fetch and scheduled handlers.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { methodNotAllowed } from "hono/method-not-allowed";
import type { AppEnv } from "./context";
import { onError } from "./error-handler";
import { AppError } from "./errors";
import { config, corsFromConfig, database, requestId, securityHeaders } from "./middleware";
import { LOOKUP_ROUTES, limitNotFound } from "./rate-limit";
import { registerAdminKeyScheme } from "./routes/admin";
import { aggregate } from "./routes/aggregate";
import { analytics } from "./routes/analytics";
import { brokers } from "./routes/brokers";
import { corporateActions } from "./routes/corporate-actions";
import { performance } from "./routes/performance";
import { customers } from "./routes/customers";
import { docs } from "./routes/docs";
import { health } from "./routes/health";
import { page } from "./routes/page";
import { portfolio } from "./routes/portfolio";
import { stats } from "./routes/stats";
import { sync } from "./routes/sync";
import { transactions } from "./routes/transactions";

export function createApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: rejectInvalidInput });

  app.use("*", requestId, securityHeaders, config, corsFromConfig);
  for (const path of LOOKUP_ROUTES) app.use(path, limitNotFound);
  // A known path asked with a method it does not take: 405 with the methods its routes take, as
  // registered below (HEAD with GET). Route middleware such as the admin key only runs for a
  // matched route, so this answers before any key is looked at. Inside the 404 brake, which so
  // sees a 405, not a miss. CORS has already answered every OPTIONS.
  app.use(
    "*",
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) => onError(new AppError(405, { headers: { Allow: methods.join(", ") } }), c),
    }),
  );
  app.use("/api/*", database);
  app.use("/c/*", database);
  registerAdminKeyScheme(app);

  // Chained, so AppType carries every route for Hono's typed client (hc<AppType>).
  const routes = app
    .route("/api", health)
    .route("/api", customers)
    .route("/api", portfolio)
    .route("/api", transactions)
    .route("/api", stats)
    .route("/api", analytics)
    .route("/api", aggregate)
    .route("/api", corporateActions)
    .route("/api", performance)
    .route("/api", brokers)
    .route("/api", sync)
    .route("/api", docs(app));
  // HTML for people, not part of the typed client.
  app.route("/", page);

  // Answered rather than thrown: a thrown error marks the request as failed, and
  // methodNotAllowed leaves a failed request's 404 alone.
  app.notFound((c) => onError(new AppError(404), c));
  app.onError(onError);
  return routes;
}

/**
 * The one validation hook. Path parameters do not fail: one that cannot be a slug or an account
 * id is looked up as a value that matches nothing (src/schemas/params.ts), so it is the same
 * 404, at the same cost, as an unknown one (README.md "Endpoints"); should a path parameter fail anyway,
 * it is still a 404. Any other failure is one 400 envelope with the issues as `details`.
 */
function rejectInvalidInput(result: {
  success: boolean;
  target: string;
  error?: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> };
}) {
  if (result.success) return;
  if (result.target === "param") throw new AppError(404);
  const details = (result.error?.issues ?? []).map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
  throw new AppError(400, { details });
}

export const app = createApp();
export type AppType = typeof app;
