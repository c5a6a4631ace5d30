/**
 * The sync as the Worker runs it, from POST /api/sync, the Cron Trigger and the continuation
 * queue: the engine (src/sync/run.ts), then the cached responses of what changed invalidated,
 * and every outcome logged as one JSON line (never a connection string, a key or a slug).
 *
 * Runs chain (docs/sync.md): a run that stops at its budget sends a continuation to SYNC_QUEUE, and
 * the queue's consumer starts the next run at once, so a backlog (an initial load, a busy day)
 * is worked off run after run instead of one run per cron tick. A Queue rather than a Workflow
 * or a frequent cron: the lease and the cursors already keep all the state a chain needs, a
 * queue consumer may run as long as a cron run, delivery is at least once (a run
 * killed midway leaves its message to be delivered again), and a message can wait out a held
 * lease with a delay. The cron stays as the safety net: it starts a chain again if one breaks.
 */
import { missingBindings } from "../bindings";
import { BROKERS_SCOPE, customerScope, invalidate, PRICES_SCOPE } from "../cache";
import { getConfig, type Config, type Env } from "../env";
import { describe } from "../errors";
import { log } from "../log";
import { LeaseHeldError, RulesNewerError } from "./errors";
import type { SyncReport } from "./report";
import { runSync, type RunOptions, type SyncOutcome } from "./run";

/**
 * Drops stale cached responses, within the Cache API calls an invocation may make however many
 * are stale (src/cache/invalidate.ts). A failed step is logged, each on its own line, and the
 * others still run; it is not fatal: the data is committed and the entries expire after
 * CACHE_TTL_SECONDS anyway.
 */
async function invalidateStale(stale: SyncOutcome["stale"], config: Config, origin: string | undefined): Promise<void> {
  const scopes = [
    ...stale.slugs.map(customerScope),
    ...(stale.brokers ? [BROKERS_SCOPE] : []),
    // One version for every answer carrying a valuation: one delete, however many hold the stocks.
    ...(stale.prices ? [PRICES_SCOPE] : []),
  ];
  if (!scopes.length) return;
  try {
    const { failures } = await invalidate(scopes, { config, origin });
    for (const { step, error } of failures)
      log("error", "cache_invalidation_failed", { step, scopes: scopes.length, error: describe(error) });
  } catch (err) {
    log("error", "cache_invalidation_failed", { scopes: scopes.length, error: describe(err) });
  }
}

function logFailure(trigger: RunOptions["trigger"], err: unknown): void {
  if (err instanceof LeaseHeldError) log("info", "sync_skipped", { trigger, reason: err.message });
  else log("error", "sync_failed", { trigger, error: describe(err) });
}

/** What a run that stopped at its budget sends on: the next run needs nothing but the lease. */
export interface Continuation {
  /** The run that stopped; null when a scheduled reconciliation found another run holding the lease. */
  after_run: string | null;
}

export interface WorkerRunOptions extends RunOptions {
  /** The Worker's own origin, under which its cache keys live. */
  origin?: string;
  /** Where a run that stops at its budget sends its continuation (none: the next cron tick continues). */
  queue?: Queue<Continuation>;
}

/** Runs a sync, invalidates what it made stale, and hands on when it stopped at its budget. */
export async function syncAndInvalidate(config: Config, options: WorkerRunOptions): Promise<SyncReport> {
  let outcome: SyncOutcome;
  try {
    outcome = await runSync(config, options);
  } catch (err) {
    logFailure(options.trigger, err);
    throw err;
  }
  await invalidateStale(outcome.stale, config, options.origin);
  log("info", "sync", { trigger: options.trigger, ...outcome.report });
  if (!outcome.report.complete && options.queue) {
    // Not fatal if it fails: the next cron tick continues where this run stopped.
    await options.queue
      .send({ after_run: outcome.report.run_id })
      .catch((err: unknown) => log("error", "sync_continuation_failed", { run_id: outcome.report.run_id, error: describe(err) }));
  }
  return outcome.report;
}

/**
 * False, with the reason logged, when the Worker lacks a binding it needs (src/bindings.ts): a
 * run without SYNC_QUEUE could not hand on, and a Worker deployed without its brakes is a
 * deploy to fix, not one to keep syncing for.
 */
function hasBindings(env: Env, trigger: RunOptions["trigger"]): boolean {
  const missing = missingBindings(env);
  if (missing.length) log("error", "bindings_missing", { trigger, missing });
  return missing.length === 0;
}

/** How long a continuation waits after a run that failed for another reason than the lease. */
const RETRY_AFTER_FAILURE_SECONDS = 30;

/**
 * The continuation queue's consumer: each message starts the next run. A run holding the lease
 * makes the message wait until the lease expires (it will have sent its own continuation if it
 * stops short); a failure retries it later.
 */
export async function continueSync(
  batch: MessageBatch<Continuation>,
  env: Env,
  options: { limits?: RunOptions["limits"] } = {},
): Promise<void> {
  if (!hasBindings(env, "chain")) return;
  const config = getConfig(env);
  for (const message of batch.messages) {
    try {
      await syncAndInvalidate(config, {
        trigger: "chain",
        mode: "delta",
        origin: config.PUBLIC_ORIGIN,
        queue: env.SYNC_QUEUE,
        limits: options.limits,
      });
      message.ack();
    } catch (err) {
      // A newer release serves this target and chains its own runs: retrying here would only fail again.
      if (err instanceof RulesNewerError) {
        message.ack();
        continue;
      }
      message.retry({ delaySeconds: err instanceof LeaseHeldError ? err.retryAfterSeconds : RETRY_AFTER_FAILURE_SECONDS });
    }
  }
}

/**
 * A Cron Trigger's run: the delta sync, or, for the cron SYNC_RECONCILE_CRON names, a
 * reconciliation (what `?mode=full` does), whose runs chain through the queue until it is
 * complete, each serving what changed first. Nobody waits for the answer, so its end is only
 * logged (and, once it holds the lease, recorded in sync_runs); a run already in progress makes
 * it a logged skip. A reconciliation's request stands even then: the run in progress or the
 * next carries it out, and a continuation is sent for when that run's lease expires.
 */
export async function cronSync(env: Env, cron: string, options: { limits?: RunOptions["limits"] } = {}): Promise<void> {
  if (!hasBindings(env, "cron")) return;
  let config: Config;
  try {
    config = getConfig(env);
  } catch (err) {
    logFailure("cron", err);
    return;
  }
  const reconciles = cron === config.SYNC_RECONCILE_CRON;
  await syncAndInvalidate(config, {
    trigger: "cron",
    mode: reconciles ? "full" : "delta",
    requestEvenIfBusy: reconciles,
    origin: config.PUBLIC_ORIGIN,
    queue: env.SYNC_QUEUE,
    limits: options.limits,
  }).catch(async (err: unknown) => {
    // Logged above. A delta skipped is made up for by the run in progress and the next tick.
    if (reconciles && err instanceof LeaseHeldError) {
      await env.SYNC_QUEUE.send({ after_run: null }, { delaySeconds: err.retryAfterSeconds }).catch((sendErr: unknown) =>
        log("error", "sync_continuation_failed", { trigger: "cron", error: describe(sendErr) }),
      );
    }
  });
}
