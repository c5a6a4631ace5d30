/**
 * The sync as the Worker runs it, from POST /api/sync, the Cron Trigger and the continuation
 * queue: the engine (src/sync/run.ts), then the cached responses of what changed invalidated,
 * and every outcome logged as one JSON line (never a connection string, a key or a slug).
 */
import { BROKERS_SCOPE, customerScope, invalidate } from "../cache";
import { getConfig, type Config, type Env } from "../env";
import { describe } from "../errors";
import { LeaseHeldError } from "./errors";
import type { SyncReport } from "./report";
import { runSync, type RunOptions, type SyncOutcome } from "./run";

const log = (level: "info" | "error", event: string, fields: Record<string, unknown>) =>
  (level === "error" ? console.error : console.log)(JSON.stringify({ level, event, ...fields }));

/**
 * Drops stale cached responses. A failure is logged, not fatal: the data is committed and the
 * entries expire after CACHE_TTL_SECONDS anyway.
 */
async function invalidateStale(stale: SyncOutcome["stale"], config: Config, origin: string | undefined): Promise<void> {
  const scopes = [...stale.slugs.map(customerScope), ...(stale.brokers ? [BROKERS_SCOPE] : [])];
  if (!scopes.length) return;
  try {
    await invalidate(scopes, { config, origin });
  } catch (err) {
    log("error", "cache_invalidation_failed", { scopes: scopes.length, error: describe(err) });
  }
}

function logFailure(trigger: RunOptions["trigger"], err: unknown): void {
  if (err instanceof LeaseHeldError) log("info", "sync_skipped", { trigger, reason: err.message });
  else log("error", "sync_failed", { trigger, error: describe(err) });
}

/** Runs a sync; `origin` is the Worker's own origin, under which its cache keys live. */
export async function syncAndInvalidate(config: Config, options: RunOptions & { origin?: string }): Promise<SyncReport> {
  let outcome: SyncOutcome;
  try {
    outcome = await runSync(config, options);
  } catch (err) {
    logFailure(options.trigger, err);
    throw err;
  }
  await invalidateStale(outcome.stale, config, options.origin);
  log("info", "sync", { trigger: options.trigger, ...outcome.report });
  return outcome.report;
}

/**
 * The Cron Trigger's run. Nobody waits for its answer, so its end is only logged (and, once it
 * holds the lease, recorded in sync_runs); a run already in progress makes it a logged skip.
 */
export async function cronSync(env: Env): Promise<void> {
  let config: Config;
  try {
    config = getConfig(env);
  } catch (err) {
    logFailure("cron", err);
    return;
  }
  await syncAndInvalidate(config, { trigger: "cron", mode: "delta", origin: config.PUBLIC_ORIGIN }).catch(() => undefined); // logged above
}
