/** Worker entry: HTTP requests go to the Hono app, Cron Triggers run the delta sync. */
import { app } from "./app";
import type { Env } from "./env";

export default {
  fetch: app.fetch,
  async scheduled(_controller, _env, _ctx) {
    // The delta sync lands here (src/sync); until then the trigger is a no-op.
  },
} satisfies ExportedHandler<Env>;
