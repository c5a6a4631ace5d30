/**
 * What can stop a sync, in the engine's own terms: the engine runs in the Worker and in
 * scripts alike, so it knows nothing of HTTP. The admin route and the cron and queue handlers
 * decide what each means to their caller (src/sync/worker.ts).
 */
export class SyncError extends Error {
  override name = "SyncError";
}

/**
 * Another run holds the lease; it expires at `expiresAt` unless that run renews it (null when a
 * run lost the lease midway and the new holder's expiry is unknown).
 */
export class LeaseHeldError extends SyncError {
  override name = "LeaseHeldError";
  constructor(
    readonly expiresAt: string | null,
    readonly retryAfterSeconds: number,
  ) {
    super(expiresAt ? `another sync run holds the lease until ${expiresAt}` : "another sync run took the lease");
  }
}

/** The back office could not be read (or is not configured); nothing was changed. */
export class SourceUnavailableError extends SyncError {
  override name = "SourceUnavailableError";
}

/** The serving database could not be reached. */
export class TargetUnavailableError extends SyncError {
  override name = "TargetUnavailableError";
}

/**
 * The target's stored metrics were written by newer rules than this code's (a newer release
 * upgraded them, and this Worker is an older version still running): continuing them with older
 * rules could store a wrong figure, so the run stops before it changes anything
 * (docs/stored-state.md, "The move").
 */
export class RulesNewerError extends SyncError {
  override name = "RulesNewerError";
  constructor(
    readonly stored: number,
    readonly own: number,
  ) {
    super(`the target's stored metrics follow rules version ${stored}, newer than this code's ${own}: a newer release serves it`);
  }
}
