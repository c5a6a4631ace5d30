/**
 * Worker entry: HTTP requests go to the Hono app, Cron Triggers run the delta sync (or the
 * nightly reconciliation, told apart by `controller.cron`), and the continuation queue runs the
 * next sync after one that stopped at its budget.
 */
import { app } from "./app";
import type { Env } from "./env";
import { type Continuation, continueSync, cronSync } from "./sync/worker";

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(cronSync(env, controller.cron));
  },
  async queue(batch, env) {
    await continueSync(batch, env);
  },
} satisfies ExportedHandler<Env, Continuation>;
