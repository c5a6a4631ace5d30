/** Worker entry: HTTP requests go to the Hono app, Cron Triggers run the delta sync. */
import { app } from "./app";
import type { Env } from "./env";
import { cronSync } from "./sync/worker";

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(cronSync(env));
  },
} satisfies ExportedHandler<Env>;
