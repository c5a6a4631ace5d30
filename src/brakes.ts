/**
 * What each per-client brake (src/rate-limit.ts) answers and announces: data only, so the
 * OpenAPI document (src/schemas/envelopes.ts) describes the brakes without importing them.
 *
 * `policy` is what a brake announces in `RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers-09,
 * section 3, "RateLimit-Policy Field": a List of quota policy Items, each a String naming the
 * policy, with `q` the quota and `w` the window in seconds). Static, as the field is meant to be:
 * the limits are wrangler.toml's `simple` settings of each binding (test/node/wrangler.test.ts
 * holds them equal). The quota counts failures (unknown slugs or account ids, wrong keys), not
 * requests: a client reading its own data is never braked.
 */
import type { ErrorCode } from "./errors";

/** Both bindings' period (wrangler.toml `simple.period`). */
export const BLOCK_MS = 60_000;

export const BRAKES = {
  lookup: { code: "rate_limited_lookup", policy: `"unknown-lookups";q=30;w=${BLOCK_MS / 1000}` },
  admin_key: { code: "rate_limited_admin_key", policy: `"wrong-admin-keys";q=10;w=${BLOCK_MS / 1000}` },
} as const satisfies Record<string, { code: ErrorCode; policy: string }>;

export type BrakeName = keyof typeof BRAKES;
